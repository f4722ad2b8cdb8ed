"""Shared fixtures: the real samples in ../shared/data (skipped when absent) and generated dumps."""

import os
import sys
from pathlib import Path

import pytest

# The tests train the encoder models on the tiny random encoder (seconds), even where the pretrained extra is installed.
os.environ.setdefault("CITEWORTH_ENCODER", "tiny")


def _keep_absl_off_the_capture_stream() -> None:
    """absl (imported by rouge-score) binds its handler to the ``sys.stderr`` of its import, here pytest's capture
    file, and closes that stream when it is not the current ``sys.stderr``. Every Dagster run calls
    ``logging.config.dictConfig``, which closes all handlers; inside a ``CliRunner`` build, ``sys.stderr`` is click's,
    so absl closed pytest's capture file and every later test of the process failed with "I/O operation on closed
    file". Bound to the real stderr, which absl never closes, the handler is harmless (it is attached to no logger)."""
    from absl import logging as absl_logging

    absl_logging.get_absl_handler().python_handler.stream = sys.__stderr__


_keep_absl_off_the_capture_stream()


@pytest.fixture(autouse=True)
def _sigterm_kept():
    """A test that runs a Dagster job in process would leave SIGTERM ignored in this xdist worker (see
    lib/signals.py), and every process it spawns later would ignore it too."""
    from citeworth_assets.lib.signals import sigterm_kept

    with sigterm_kept():
        yield


SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip(f"real sample data not found at {SHARED_DATA} (CI has ../shared/data beside the repository)")
    return SHARED_DATA


@pytest.fixture(scope="session")
def build_graph():
    """Build a dump root as `citeworth build` does (the one build plan: the sources, then whatever the graph's
    automation conditions request) on the data root's own Dagster instance, every run in the test's process unless
    ``in_process=False`` (then through the run queue, as `citeworth build`; tests/defs/test_build.py builds so):
    ``build_graph(dumps, data, **settings)`` gives the settings, the build result (``failed``, ``materialized``),
    the instance and the definitions."""
    return _build_graph


def _build_graph(dumps: Path, data: Path, workers: int = 2, in_process: bool = True, **settings_values):
    from citeworth_assets.build_root import build_data_root
    from citeworth_assets.definitions import build_definitions
    from citeworth_assets.lib.settings import Settings
    from citeworth_assets.resources import CiteworthSettings

    settings = Settings.resolve(dumps=str(dumps), data=str(data), **settings_values)
    settings.require_data()
    with pytest.MonkeyPatch.context() as patch:  # the build points DAGSTER_HOME at the data root's instance
        patch.setenv("DAGSTER_HOME", str(settings.dagster_home))
        result, instance = build_data_root(settings, workers=workers, echo=lambda line: None, in_process=in_process)
    return settings, result, instance, build_definitions(CiteworthSettings(**settings.values()))
