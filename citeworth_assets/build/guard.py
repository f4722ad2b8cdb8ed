"""One build per data root, and the cleaning up after a build that was killed.

Two builds on one data root would both build every partition and then collide in the warehouse step, so a build
holds an OS lock (``flock``) on ``<data>/.citeworth-build.lock`` while it runs: the kernel drops it when the process
ends, however it ends, so a killed build never leaves a stale lock, and a second build is refused at once.

A build killed with ``kill -9`` cannot mark its own runs: they stay STARTED (or QUEUED), keep their pool slots (the
warehouse pool has one) and every later run that needs the slot waits for ever. The next build, once it holds the
lock (so no other build is alive), fails every run an earlier build submitted and left unfinished, frees their slots,
ends the processes that build left behind (its code server, its run workers: they carry its pid in
``CITEWORTH_BUILD_PID``) and removes the warehouse drafts. The warehouse views the dead build wrote into its draft
never reached the warehouse, though the instance records them as materialized: their records are wiped, so that
their condition (``refreshed_view``: created while missing) makes them again. Everything else the dead build left
undone is requested by the graph's own conditions (``defs/automation.py``: ``left_missing``).
"""

from __future__ import annotations

import fcntl
import os
import signal
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

LOCK_NAME = ".citeworth-build.lock"
_HELD: set[Path] = set()  # data roots this process holds
BUILD_PID_ENV = "CITEWORTH_BUILD_PID"
BUILD_PID_TAG = "citeworth/build_pid"
IN_BUILD_TAG = "citeworth/in_build_process"  # a run the build executed in its own process (not queued)
UNFINISHED = ("QUEUED", "NOT_STARTED", "STARTING", "STARTED", "CANCELING")


class DataRootBusy(RuntimeError):
    """Another build holds the data root."""


@contextmanager
def data_root_lock(data: Path) -> Iterator[None]:
    """Hold the data root for this process, or raise :class:`DataRootBusy` naming the build that holds it
    (re-entrant: the CLI holds it before it cleans anything, the build plan within)."""
    data.mkdir(parents=True, exist_ok=True)
    if data.resolve() in _HELD:
        yield
        return
    path = data / LOCK_NAME
    with open(path, "a+") as handle:  # the descriptor is not inherited: run workers never hold the lock
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "pid unknown"
            raise DataRootBusy(
                f"another build ({holder}) holds the data root {data}; wait for it to finish, or build into "
                "another --data"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"pid {os.getpid()}, started {datetime.now(UTC):%Y-%m-%d %H:%M:%S} UTC\n")
        handle.flush()
        _HELD.add(data.resolve())
        try:
            yield
        finally:
            _HELD.discard(data.resolve())
            handle.seek(0)
            handle.truncate()


def _alive(pid: int, since: float | None = None) -> bool:
    """Whether process ``pid`` lives and, given ``since`` (POSIX time), is not a later process that reuses the id."""
    import psutil

    try:
        started = psutil.Process(pid).create_time()
    except psutil.NoSuchProcess:
        return False
    except psutil.Error:
        return True
    return since is None or started <= since + 1


def leftover_processes(data: Path) -> list[int]:
    """Processes started by a build that is no longer alive (code servers, run workers) for this data root."""
    import psutil

    leftovers = []
    for process in psutil.process_iter(["pid"]):
        try:
            environment = process.environ()
        except (psutil.Error, OSError):
            continue
        owner = environment.get(BUILD_PID_ENV)
        if not owner or not owner.isdigit() or int(owner) == os.getpid() or _alive(int(owner)):
            continue
        if Path(environment.get("CITEWORTH_DATA", "/nonexistent")).resolve() == data.resolve():
            leftovers.append(process.info["pid"])
    return leftovers


def recover_dead_build(instance, data: Path, warehouse: Path, views: Iterable = ()) -> list[str]:
    """Clean up after builds that ended without finishing (call it holding :func:`data_root_lock`); returns what
    was done, one line each. ``views``: the asset keys of the warehouse views."""

    from citeworth_assets.lib import warehouse as warehouse_lib

    done = []
    for pid in leftover_processes(data):
        try:
            os.kill(pid, signal.SIGKILL)
            done.append(f"stopped process {pid} left by a killed build")
        except ProcessLookupError:
            pass
    done += _fail_dead_runs(instance)
    warehouse.parent.mkdir(parents=True, exist_ok=True)
    with open(warehouse.with_name(warehouse.name + ".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        for draft in warehouse_lib.remove_stale_drafts(warehouse):
            done.append(f"removed {draft.name} (a warehouse draft left by an interrupted build)")
            done += _unpublished_views(instance, warehouse_lib.draft_builder(draft), views)
    return done


def _unpublished_views(instance, builder: int | None, views: Iterable) -> list[str]:
    """Wipe the record of the views whose latest materialization went into the dead build ``builder``'s draft."""
    if builder is None or builder == os.getpid():
        return []
    wiped = []
    for key in views:
        event = instance.get_latest_materialization_event(key)
        run = instance.get_run_by_id(event.run_id) if event is not None else None
        if run is not None and run.tags.get(BUILD_PID_TAG) == str(builder):
            wiped.append(key)
    if not wiped:
        return []
    instance.wipe_assets(wiped)
    return [f"{len(wiped)} warehouse views written only into that draft recorded as not built (made again)"]


def _fail_dead_runs(instance) -> list[str]:
    """Mark failed (queued ones canceled) the unfinished runs of builds that are dead, freeing their pool slots.
    With a daemon dequeuing, runs it launched outlive the build and end on their own: only those the build ran in
    its own process are failed."""
    import dagster as dg

    from citeworth_assets.build.dagster_internals import daemon_dequeues

    daemon, done = daemon_dequeues(instance), []
    statuses = [dg.DagsterRunStatus[name] for name in UNFINISHED]
    for record in instance.get_run_records(dg.RunsFilter(statuses=statuses)):
        run = record.dagster_run
        owner = run.tags.get(BUILD_PID_TAG)
        if owner is None or not owner.isdigit() or int(owner) == os.getpid():
            continue  # not a build's run (the UI's, a daemon's), or this build's
        if _alive(int(owner), record.create_timestamp.timestamp()) or (daemon and IN_BUILD_TAG not in run.tags):
            continue  # its build is alive (on another data root of a shared instance), or the daemon runs it
        message = f"its build (pid {owner}) ended before it finished (killed?); marked failed by the next build"
        if run.status in (dg.DagsterRunStatus.QUEUED, dg.DagsterRunStatus.NOT_STARTED):
            instance.report_run_canceled(run, message=message)
        else:
            instance.report_run_failed(run, message=message)
        if instance.event_log_storage.supports_global_concurrency_limits:
            instance.event_log_storage.free_concurrency_slots_for_run(run.run_id)
        done.append(f"run {run.run_id} ({run.job_name}) of a killed build marked failed, its pool slots freed")
    return done
