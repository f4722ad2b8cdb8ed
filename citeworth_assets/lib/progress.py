"""What a build prints: library logs kept at WARNING unless asked for, and progress for the long steps.

A build used to print transformers' weight-loading reports and tqdm bars, MLflow's INFO lines and Dagster's own
event log, but nothing about how far the long steps were. Here the libraries are quietened once, before they are
imported (their environment variables are read at import), and the platform reports its own steps: a bar on a
terminal, one plain line per step elsewhere (CI logs, files), so a log never fills with carriage returns.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TextIO, TypeVar

# Loggers of the libraries a build runs; at WARNING their INFO chatter and load reports go away.
LIBRARY_LOGGERS = (
    "transformers",
    "huggingface_hub",
    "mlflow",
    "alembic",
    "urllib3",
    "httpx",
    "filelock",
    "torch",
    "dagster",
    "sentence_transformers",
)
# Read by the libraries at import: transformers' verbosity and its (huggingface_hub's) progress bars, tqdm elsewhere.
QUIET_ENVIRONMENT = {
    "TRANSFORMERS_VERBOSITY": "error",
    "HF_HUB_DISABLE_PROGRESS_BARS": "1",
    "TQDM_DISABLE": "1",
    "TOKENIZERS_PARALLELISM": "false",
    "MLFLOW_ENABLE_ARTIFACTS_PROGRESS_BAR": "false",
    "MLFLOW_LOGGING_LEVEL": "WARNING",  # mlflow sets its loggers' level from this when imported
}
VERBOSE_ENVIRONMENT = {
    "TRANSFORMERS_VERBOSITY": "info",
    "HF_HUB_DISABLE_PROGRESS_BARS": "0",
    "TQDM_DISABLE": "0",
    "MLFLOW_LOGGING_LEVEL": "INFO",
}


_SET_BY_US: dict[str, str] = {}


def quiet_libraries(verbose: bool = False) -> None:
    """Library logs at WARNING (INFO with ``verbose``), their progress bars off; safe to call again.

    The environment is set only where the user has not set it (or this function set it), so an explicit
    ``TRANSFORMERS_VERBOSITY`` wins.
    """
    for name, value in (VERBOSE_ENVIRONMENT if verbose else QUIET_ENVIRONMENT).items():
        if verbose or name not in os.environ or os.environ[name] == _SET_BY_US.get(name):
            os.environ[name] = _SET_BY_US[name] = value
    level = logging.INFO if verbose else logging.WARNING
    for name in LIBRARY_LOGGERS:
        logging.getLogger(name).setLevel(level)
    if "transformers" in sys.modules:  # already imported: its environment was read, so tell it directly
        from transformers.utils import logging as transformers_logging

        if verbose:
            transformers_logging.set_verbosity_info()
            transformers_logging.enable_progress_bar()
        else:
            transformers_logging.set_verbosity_error()
            transformers_logging.disable_progress_bar()


def is_terminal(stream: TextIO | None = None) -> bool:
    stream = stream or sys.stdout
    return hasattr(stream, "isatty") and stream.isatty() and os.environ.get("CI", "").lower() not in ("1", "true")


T = TypeVar("T")


@dataclass
class Steps:
    """Progress over ``total`` steps of one kind (shards, fields, epochs).

    On a terminal a rich bar redraws in place; elsewhere each finished step is one line, ``label [i/n] note``.
    """

    label: str
    total: int
    stream: TextIO | None = None
    done: int = 0
    lines: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.stream = self.stream or sys.stdout
        self._bar = None
        if is_terminal(self.stream):
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self._bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TextColumn("{task.fields[note]}"),
                console=Console(file=self.stream),
                transient=True,
            )
            self._task = self._bar.add_task(self.label, total=self.total, note="")
            self._bar.start()

    def advance(self, note: str = "") -> None:
        self.done += 1
        line = f"{self.label} [{self.done}/{self.total}] {note}".rstrip()
        self.lines.append(line)
        if self._bar is not None:
            self._bar.update(self._task, advance=1, note=note)
        else:
            print(line, file=self.stream, flush=True)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None

    def __enter__(self) -> Steps:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def track(
    items: Iterable[T], label: str, total: int | None = None, note: Callable[[T], str] | None = None
) -> Iterator[T]:
    """Each item of ``items``, reported as a step once the caller is done with it."""
    items = list(items) if total is None else items
    with Steps(label, total if total is not None else len(items)) as steps:
        for item in items:
            yield item
            steps.advance(note(item) if note else str(item))


def epoch_reporter(
    model: str, epochs: int, then: Callable[[int, float], None] | None = None
) -> Callable[[int, float], None]:
    """An ``on_epoch(epoch, dev_f1)`` callback for the training loop that reports the epoch, then calls ``then``."""
    steps = Steps(f"{model} epochs", epochs)

    def on_epoch(epoch: int, f1: float) -> None:
        steps.advance(f"dev F1 {f1:.3f}")
        if steps.done >= steps.total:
            steps.close()
        if then is not None:
            then(epoch, f1)

    return on_epoch
