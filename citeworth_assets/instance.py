"""The Dagster instance the CLI and ``make ui`` share, so runs of ``citeworth build`` show in the UI."""

import os
from pathlib import Path

import dagster as dg

from citeworth_assets.lib.settings import Settings

# Pools of limit 1: one writer of the warehouse, one training job on the GPU. No telemetry (no network).
INSTANCE_YAML = """\
concurrency:
  pools:
    default_limit: 1
telemetry:
  enabled: false
"""


def prepare_dagster_home(settings: Settings) -> Path:
    """``$DAGSTER_HOME`` if set, else ``<data>/dagster_home``, created with the platform's instance config."""
    home = Path(os.environ.get("DAGSTER_HOME") or settings.dagster_home).resolve()
    home.mkdir(parents=True, exist_ok=True)
    config = home / "dagster.yaml"
    if not config.exists():
        config.write_text(INSTANCE_YAML)
    os.environ["DAGSTER_HOME"] = str(home)
    return home


def dagster_instance(settings: Settings) -> dg.DagsterInstance:
    prepare_dagster_home(settings)
    return dg.DagsterInstance.get()
