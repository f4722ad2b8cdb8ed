"""The Dagster instance the CLI and ``citeworth ui`` share, so runs of ``citeworth build`` show in the UI and the
instance is the one record of what was built.

Its configuration (``$DAGSTER_HOME/dagster.yaml``, written once) queues every run: the queued run coordinator
starts at most ``max_concurrent_runs`` runs at a time (one per core by default), whoever submitted them: the dump
sensor, the automation sensor, a UI backfill or ``citeworth build --workers N``. Pools default to a limit of 1:
one writer of the warehouse (pool ``warehouse``), one training job on the GPU (pool ``gpu``). No telemetry.
"""

import os
from pathlib import Path

import dagster as dg

from citeworth_assets.lib.settings import PlatformSettings

LOCATION = "citeworth"
WORKSPACE_YAML = f"""\
# Written by citeworth: the code location of the platform, for `citeworth ui` and the runs of `citeworth build`.
load_from:
  - python_module:
      module_name: citeworth_assets.definitions
      location_name: {LOCATION}
"""
INSTANCE_YAML = """\
# Written by citeworth (citeworth_assets/instance.py); edit freely, it is not rewritten.
run_coordinator:
  module: dagster.core.run_coordinator
  class: QueuedRunCoordinator
concurrency:
  runs:
    max_concurrent_runs: {cores}
  pools:
    default_limit: 1
telemetry:
  enabled: false
"""
# What earlier versions wrote; such a file is brought up to date (anything else is the user's and kept).
OLD_INSTANCE_YAMLS = ("concurrency:\n  pools:\n    default_limit: 1\ntelemetry:\n  enabled: false\n",)


def default_workers() -> int:
    return os.cpu_count() or 1


def prepare_dagster_home(settings: PlatformSettings) -> Path:
    """``$DAGSTER_HOME`` if set, else ``<data>/dagster_home``, created with the platform's instance and workspace."""
    home = Path(os.environ.get("DAGSTER_HOME") or settings.dagster_home).resolve()
    home.mkdir(parents=True, exist_ok=True)
    config = home / "dagster.yaml"
    if not config.exists() or config.read_text() in OLD_INSTANCE_YAMLS:
        config.write_text(INSTANCE_YAML.format(cores=default_workers()))
    workspace = home / "workspace.yaml"
    if not workspace.exists() or workspace.read_text() != WORKSPACE_YAML:
        workspace.write_text(WORKSPACE_YAML)
    os.environ["DAGSTER_HOME"] = str(home)
    return home


def workspace_file() -> Path:
    """The workspace file of the instance prepared last (``prepare_dagster_home`` writes it)."""
    return Path(os.environ["DAGSTER_HOME"]) / "workspace.yaml"


def code_location_args() -> list[str]:
    """``dagster dev`` / ``dagster-daemon`` arguments that load the platform's code location."""
    return ["-w", str(workspace_file())]


def dagster_instance(settings: PlatformSettings, max_concurrent_runs: int | None = None) -> dg.DagsterInstance:
    """The shared instance; ``max_concurrent_runs`` overrides the run queue's limit for this process only
    (``citeworth build --workers N`` dequeues its own runs with it)."""
    home = prepare_dagster_home(settings)
    if max_concurrent_runs is None:
        return dg.DagsterInstance.get()
    import yaml

    from citeworth_assets.build.dagster_internals import instance_with_overrides

    concurrency = (yaml.safe_load((home / "dagster.yaml").read_text()) or {}).get("concurrency") or {}
    overrides = {
        "concurrency": {
            **concurrency,
            "runs": {**concurrency.get("runs", {}), "max_concurrent_runs": max_concurrent_runs},
        }
    }
    return instance_with_overrides(home, overrides)
