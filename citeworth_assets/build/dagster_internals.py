"""Every Dagster internal the build relies on, in one module: what Dagster's public API does not offer.

Checked against Dagster 1.13 (:data:`CHECKED_AGAINST`; ``pyproject.toml`` pins ``dagster>=1.13,<1.14``):
tests/build/test_dagster_internals.py fails, naming this module, on a Dagster of another minor version or one where
a name or a parameter used here has changed. Elsewhere the build uses ``dagster`` (``dg``) only.

- The run queue (:mod:`~citeworth_assets.build.run_queue`) submits runs as the UI's launchpad does (a job subset
  selector, a workspace process context over the workspace file) and, with no ``dagster-daemon`` running, dequeues
  them with the daemon's own dequeue step: Dagster has no public "submit this run to the queue" or "dequeue" call.
- ``citeworth build --workers N`` opens the instance with the run queue's limit overridden for its process only:
  ``DagsterInstance.from_config`` takes no overrides.
- A run of a range of partitions (``BackfillPolicy.single_run``) is asked for with the range tags the backfill
  daemon sets; their names are not exported.
- The deployment's instance YAML (deploy/dagster.yaml) is checked without a cluster against Dagster's schema and each
  configured class's own (tests/deploy/test_k8s_config.py): Dagster has no public call that validates either.
- The plan's automation evaluation reads the instance's dynamic partition keys thousands of times; they do not change
  while it runs, so :func:`dynamic_partitions_read_once` reads them once (no public setting does).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

import dagster as dg

CHECKED_AGAINST = "1.13"  # the Dagster minor version these internals were read in


def internals() -> dict:
    """Every internal name used here, imported (each where it is used, too: the daemon's and the workspace's modules
    take about half a second to import, which a process that never queues a run should not pay)."""
    from dagster._config import validate_config
    from dagster._core.definitions.selector import JobSubsetSelector
    from dagster._core.instance.config import dagster_instance_config
    from dagster._core.instance.ref import InstanceRef
    from dagster._core.storage import tags
    from dagster._core.workspace.context import WorkspaceProcessContext
    from dagster._core.workspace.load_target import WorkspaceFileTarget
    from dagster._daemon.controller import get_daemon_statuses
    from dagster._daemon.run_coordinator.queued_run_coordinator_daemon import QueuedRunCoordinatorDaemon

    return {
        "JobSubsetSelector": JobSubsetSelector,
        "InstanceRef": InstanceRef,
        "tags": tags,
        "WorkspaceProcessContext": WorkspaceProcessContext,
        "WorkspaceFileTarget": WorkspaceFileTarget,
        "get_daemon_statuses": get_daemon_statuses,
        "QueuedRunCoordinatorDaemon": QueuedRunCoordinatorDaemon,
        "validate_config": validate_config,
        "dagster_instance_config": dagster_instance_config,
    }


def config_errors(config_type, value) -> list[str]:
    """What is wrong with ``value`` for a Dagster config type, as the instance checks a configured class's config."""
    from dagster._config import validate_config

    return [error.message for error in validate_config(config_type, value).errors or []]


def configured_class(module: str, name: str) -> type:
    """The class an instance YAML entry names; its ``dagster.core`` module alias lives under ``dagster._core``."""
    import importlib

    return getattr(importlib.import_module(module.replace("dagster.core.", "dagster._core.")), name)


def instance_config(home: Path) -> tuple[dict, type | None]:
    """The instance YAML under ``home`` as Dagster reads and validates it, and its custom instance class if any."""
    from dagster._core.instance.config import dagster_instance_config

    return dagster_instance_config(str(home))


def partition_range_tags(first: str, last: str) -> dict[str, str]:
    """The tags that make one run of a range of partitions, as a backfill of a ``single_run`` asset sets them."""
    from dagster._core.storage.tags import ASSET_PARTITION_RANGE_END_TAG, ASSET_PARTITION_RANGE_START_TAG

    return {ASSET_PARTITION_RANGE_START_TAG: first, ASSET_PARTITION_RANGE_END_TAG: last}


def daemon_dequeues(instance: dg.DagsterInstance) -> bool:
    """Whether a live ``dagster-daemon`` (e.g. of ``citeworth ui``) dequeues this instance's runs."""
    from dagster._daemon.controller import get_daemon_statuses
    from dagster._daemon.run_coordinator.queued_run_coordinator_daemon import QueuedRunCoordinatorDaemon

    kind = QueuedRunCoordinatorDaemon.daemon_type()
    return bool(get_daemon_statuses(instance, [kind], ignore_errors=True)[kind].healthy)


def dequeuer(interval_seconds: float):
    """The daemon's dequeue step, to run in a wait loop (``run_iteration(workspace_process_context)``; a context
    manager to close)."""
    from dagster._daemon.run_coordinator.queued_run_coordinator_daemon import QueuedRunCoordinatorDaemon

    return QueuedRunCoordinatorDaemon(interval_seconds=interval_seconds)


def job_selector(location: str, repository: str, job_name: str, assets: Iterable[dg.AssetKey] | None):
    """What the launchpad asks a code location for: ``job_name``, only ``assets`` of it when given."""
    from dagster._core.definitions.selector import JobSubsetSelector

    return JobSubsetSelector(
        location_name=location,
        repository_name=repository,
        job_name=job_name,
        op_selection=None,
        asset_selection=frozenset(assets) if assets else None,
    )


def workspace_context(instance: dg.DagsterInstance, workspace_file: Path):
    """The code locations of a workspace file, served as ``dagster dev`` serves them (a context manager)."""
    from dagster._core.workspace.context import WorkspaceProcessContext
    from dagster._core.workspace.load_target import WorkspaceFileTarget

    return WorkspaceProcessContext(
        instance, WorkspaceFileTarget(paths=[str(workspace_file)]), code_server_log_level="WARNING"
    )


def instance_with_overrides(home: Path, overrides: dict) -> dg.DagsterInstance:
    """The instance of ``home`` with ``overrides`` over its ``dagster.yaml``, for this process only."""
    from dagster._core.instance.ref import InstanceRef

    return dg.DagsterInstance.from_ref(InstanceRef.from_dir(str(home), overrides=overrides))


@contextmanager
def dynamic_partitions_read_once(instance: dg.DagsterInstance) -> Iterator[None]:
    """Dynamic partition keys read once per evaluation: the evaluation asks the instance for them thousands of times
    (8,604 queries, 25 of its 31 CPU-s, in a 3-file arXiv build), and they do not change while it runs. The
    instance's method is shadowed on the object and restored after."""
    read = instance.get_dynamic_partitions
    instance.get_dynamic_partitions = functools.cache(read)
    try:
        yield
    finally:
        del instance.get_dynamic_partitions  # (the instance's own method again)
