"""The platform's settings: one place, with defaults and environment variables.

Every path the platform touches derives from two roots:

* the dump root (``CITEWORTH_DUMPS``): raw dumps, read-only;
* the data root (``CITEWORTH_DATA``, default ``./data``): ``lake/`` (Parquet, the source of truth),
  ``warehouse.duckdb`` (views over the lake), ``mlruns/`` (MLflow) and ``dagster_home/``.

A CLI flag beats the environment, which beats the default. A missing or wrong path fails fast with a
:class:`SettingError` that names the setting, never later with an obscure I/O error.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

DUMPS_ENV = "CITEWORTH_DUMPS"
DATA_ENV = "CITEWORTH_DATA"
DEFAULT_DUMPS = "./dumps"
DEFAULT_DATA = "./data"


class SettingError(ValueError):
    """A setting is missing or points somewhere unusable; the message names the setting."""


@dataclass(frozen=True)
class Settings:
    dumps: Path
    data: Path

    @classmethod
    def resolve(cls, dumps: str | os.PathLike | None = None, data: str | os.PathLike | None = None) -> "Settings":
        """Settings from explicit values, else the environment, else the defaults (paths made absolute)."""
        dumps = dumps or os.environ.get(DUMPS_ENV) or DEFAULT_DUMPS
        data = data or os.environ.get(DATA_ENV) or DEFAULT_DATA
        return cls(dumps=Path(dumps).expanduser().resolve(), data=Path(data).expanduser().resolve())

    @property
    def lake(self) -> Path:
        return self.data / "lake"

    @property
    def warehouse(self) -> Path:
        return self.data / "warehouse.duckdb"

    @property
    def mlruns(self) -> Path:
        return self.data / "mlruns"

    @property
    def dagster_home(self) -> Path:
        return self.data / "dagster_home"

    def require_dumps(self) -> Path:
        """The dump root, which must be an existing directory."""
        if not self.dumps.exists():
            raise SettingError(
                f"dump root {self.dumps} does not exist (set --dumps or {DUMPS_ENV} to the folder holding the dumps)"
            )
        if not self.dumps.is_dir():
            raise SettingError(f"dump root {self.dumps} is not a directory (--dumps / {DUMPS_ENV})")
        return self.dumps

    def require_data(self) -> Path:
        """The data root, created when missing; it must be a writable directory."""
        if self.data.exists() and not self.data.is_dir():
            raise SettingError(f"data root {self.data} is not a directory (--data / {DATA_ENV})")
        try:
            self.data.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise SettingError(f"data root {self.data} cannot be created (--data / {DATA_ENV}): {error}") from error
        if not os.access(self.data, os.W_OK):
            raise SettingError(f"data root {self.data} is not writable (--data / {DATA_ENV})")
        return self.data
