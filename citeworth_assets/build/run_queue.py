"""Runs through the instance's run queue, for ``citeworth build --workers N`` (every run of the build plan).

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
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager

import dagster as dg

from citeworth_assets.build.dagster_internals import (
    daemon_dequeues,
    dequeuer,
    job_selector,
    workspace_context,
)
from citeworth_assets.build.instance import LOCATION, workspace_file

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


class RunQueue:
    """Submits runs (of a job, or of some assets, for one partition) and reports each run as it finishes."""

    def __init__(self, instance: dg.DagsterInstance, process_context):
        self.instance, self.process_context = instance, process_context
        self.runs: dict[str, object] = {}  # run id -> what the caller submitted it for
        self._dequeuer = None if daemon_dequeues(instance) else dequeuer(POLL_SECONDS)

    def submit(
        self,
        job_name: str,
        partition_key: str | None,
        run_config: Mapping,
        tags: Mapping[str, str],
        assets: Iterable[dg.AssetKey] | None = None,
        label: object = None,
    ) -> str:
        """Queue a run of ``job_name`` (only ``assets`` of it, when given) for ``partition_key``."""
        workspace = self.process_context.create_request_context()
        location = workspace.get_code_location(LOCATION)
        (repository,) = location.get_repositories().values()
        selection = frozenset(assets) if assets else None
        remote_job = location.get_job(job_selector(location.name, repository.name, job_name, selection))
        plan = location.get_execution_plan(
            remote_job, dict(run_config), step_keys_to_execute=None, known_state=None, instance=self.instance
        )
        partition = {"dagster/partition": partition_key} if partition_key is not None else {}
        run = self.instance.create_run(
            job_name=job_name,
            run_id=None,
            run_config=dict(run_config),
            resolved_op_selection=remote_job.resolved_op_selection,
            step_keys_to_execute=plan.execution_plan_snapshot.step_keys_to_execute,
            op_selection=None,
            status=None,
            root_run_id=None,
            parent_run_id=None,
            tags={**remote_job.tags, **tags, **partition},
            job_snapshot=remote_job.job_snapshot,
            execution_plan_snapshot=plan.execution_plan_snapshot,
            parent_job_snapshot=remote_job.parent_job_snapshot,
            remote_job_origin=remote_job.get_remote_origin(),
            job_code_origin=remote_job.get_python_origin(),
            asset_selection=selection,
            asset_check_selection=None,
            asset_graph=repository.asset_graph,
        )
        self.instance.submit_run(run.run_id, workspace)
        self.runs[run.run_id] = label if label is not None else partition_key
        return run.run_id

    def finished(self, run_ids: Iterable[str] | None = None) -> Iterator[dg.DagsterRun]:
        """Each submitted run (of ``run_ids``, default all) once it has finished, in the order they finish,
        dequeuing while none has."""
        waiting = set(self.runs if run_ids is None else run_ids)
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
def run_queue(instance: dg.DagsterInstance, env: Mapping[str, str]) -> Iterator[RunQueue]:
    """A queue of runs in the code location of ``citeworth ui``, loaded with ``env`` set."""
    with environment(env), workspace_context(instance, workspace_file()) as context:
        error = context.create_request_context().get_code_location_error(LOCATION)
        if error:
            raise RuntimeError(f"the code location {LOCATION!r} did not load: {error.message}")
        queue = RunQueue(instance, context)
        try:
            yield queue
        finally:
            if queue._dequeuer is not None:
                queue._dequeuer.__exit__(None, None, None)
