"""Shard runs through the instance's run queue, for ``citeworth build --workers N``.

Why this way: the shards must go through Dagster's own machinery, so that the limits that bound a UI backfill
(the queued run coordinator's ``max_concurrent_runs``, pools) bound the CLI too, and every run is an ordinary run
of the instance (its logs, its materializations, the record of what was built). A run submitted to a queued
run coordinator waits in status QUEUED until something dequeues it: normally the ``dagster-daemon`` that
``citeworth ui`` (``dagster dev``) starts. ``citeworth build`` does not need the UI: when no daemon has sent a
heartbeat lately, it runs the daemon's own dequeue step (``QueuedRunCoordinatorDaemon.run_iteration``) in its
wait loop, with the queue limit set to ``--workers``. Dequeued runs are launched by the instance's run launcher
(``DefaultRunLauncher``: one process per run, started by the code location's server), exactly as the daemon
would. When a daemon is running it dequeues, under the instance's configured limit.

Other ways considered: ``execute_in_process`` in a process pool (home-made, bypasses the queue and its limits);
starting a whole ``dagster-daemon`` for the build (it would also tick the dump and automation sensors, which
would then race the build's own downstream steps).
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

import dagster as dg

from citeworth_assets.instance import LOCATION, workspace_file

# The dequeuer's INFO lines ("2 runs are currently in progress") are a daemon's log, not the build's output.
logging.getLogger("dagster.daemon.QueuedRunCoordinatorDaemon").setLevel(logging.WARNING)
FINISHED = {dg.DagsterRunStatus.SUCCESS, dg.DagsterRunStatus.FAILURE, dg.DagsterRunStatus.CANCELED}
POLL_SECONDS = 0.5


@contextmanager
def environment(values: Mapping[str, str]) -> Iterator[None]:
    """Variables the code location's server and the run processes inherit (the settings of this build)."""
    before = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def daemon_dequeues(instance: dg.DagsterInstance) -> bool:
    """Whether a live ``dagster-daemon`` (e.g. of ``citeworth ui``) dequeues this instance's runs."""
    from dagster._daemon.controller import get_daemon_statuses
    from dagster._daemon.run_coordinator.queued_run_coordinator_daemon import (
        QueuedRunCoordinatorDaemon,
    )

    kind = QueuedRunCoordinatorDaemon.daemon_type()
    return bool(get_daemon_statuses(instance, [kind], ignore_errors=True)[kind].healthy)


class ShardQueue:
    """Submits runs of one job, one per partition, and reports each run as it finishes."""

    def __init__(self, instance: dg.DagsterInstance, process_context, job_name: str):
        self.instance, self.process_context, self.job_name = instance, process_context, job_name
        self.runs: dict[str, str] = {}  # run id -> partition key
        from dagster._daemon.run_coordinator.queued_run_coordinator_daemon import (
            QueuedRunCoordinatorDaemon,
        )

        self._dequeuer = (
            None if daemon_dequeues(instance) else QueuedRunCoordinatorDaemon(interval_seconds=POLL_SECONDS)
        )

    def submit(self, partition_key: str, run_config: Mapping, tags: Mapping[str, str]) -> str:
        from dagster._cli.job import _create_run

        workspace = self.process_context.create_request_context()
        location = workspace.get_code_location(LOCATION)
        (repository,) = location.get_repositories().values()
        run = _create_run(
            instance=self.instance,
            code_location=location,
            remote_repo=repository,
            remote_job=repository.get_full_job(self.job_name),
            run_config=dict(run_config),
            tags={**tags, "dagster/partition": partition_key},
            op_selection=None,
            run_id=None,
        )
        self.instance.submit_run(run.run_id, workspace)
        self.runs[run.run_id] = partition_key
        return run.run_id

    def finished(self) -> Iterator[dg.DagsterRun]:
        """Each submitted run once it has finished, in the order they finish, dequeuing while none has."""
        waiting = set(self.runs)
        while waiting:
            if self._dequeuer is not None:
                for _ in self._dequeuer.run_iteration(self.process_context):
                    pass
            done = [run for run in map(self.instance.get_run_by_id, sorted(waiting)) if run.status in FINISHED]
            for run in done:
                waiting.discard(run.run_id)
                yield run
            if not done:
                time.sleep(POLL_SECONDS)

    def materializations(self, run_id: str) -> list:
        """The run's materialization events (as ``execute_in_process`` results give them)."""
        entries = self.instance.all_logs(run_id, of_type=dg.DagsterEventType.ASSET_MATERIALIZATION)
        return [entry.dagster_event for entry in entries]


@contextmanager
def shard_queue(instance: dg.DagsterInstance, job_name: str, env: Mapping[str, str]) -> Iterator[ShardQueue]:
    """A queue of runs of ``job_name`` in the code location of ``citeworth ui``, loaded with ``env`` set."""
    from dagster._core.workspace.context import WorkspaceProcessContext
    from dagster._core.workspace.load_target import WorkspaceFileTarget

    with (
        environment(env),
        WorkspaceProcessContext(
            instance, WorkspaceFileTarget(paths=[str(workspace_file())]), code_server_log_level="WARNING"
        ) as context,
    ):
        error = context.create_request_context().get_code_location_error(LOCATION)
        if error:
            raise RuntimeError(f"the code location {LOCATION!r} did not load: {error.message}")
        queue = ShardQueue(instance, context, job_name)
        try:
            yield queue
        finally:
            if queue._dequeuer is not None:
                queue._dequeuer.__exit__(None, None, None)
