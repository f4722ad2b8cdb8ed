"""Two builds on one data root, and a `kill -9` during the warehouse step (issue 24 items 0 and 9), with real
processes: the second build is refused at once, the killed build's runs, pool slots, processes and warehouse draft
are cleaned up by the next build, which finishes with a warehouse."""

import os
import signal
import subprocess
import sys
import time

import dagster as dg
import pytest

from citeworth_assets.build.guard import BUILD_PID_ENV, LOCK_NAME
from citeworth_assets.definitions import build_definitions
from citeworth_assets.samples.s2orc import generate_sample_dump

pytestmark = [pytest.mark.slow, pytest.mark.ops]  # builds a small dump twice in subprocesses, killing the first

CLI = "from citeworth_assets.cli import main; main()"


def build(dumps, data, **popen):
    env = {**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    env.pop("DAGSTER_HOME", None)  # the data root's own instance
    command = [sys.executable, "-c", CLI, "build", "--dumps", str(dumps), "--data", str(data), "--workers", "1"]
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **popen)


def wait_for(condition, seconds: float, what: str):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def started_runs(home) -> list:
    if not (home / "dagster.yaml").exists() or not (home / "history").exists():
        return []
    with dg.DagsterInstance.from_config(str(home)) as instance:
        return list(instance.get_runs(dg.RunsFilter(statuses=[dg.DagsterRunStatus.STARTED])))


def build_processes(pid: int) -> list[int]:
    import psutil

    found = []
    for process in psutil.process_iter(["pid"]):
        try:
            if process.environ().get(BUILD_PID_ENV) == str(pid):
                found.append(process.info["pid"])
        except (psutil.Error, OSError):
            continue
    return found


def test_a_second_build_is_refused_and_a_killed_build_does_not_hang_the_next(tmp_path):
    dumps, data = tmp_path / "dumps", tmp_path / "data"
    generate_sample_dump(dumps, papers=30, shards=1, seed=3)
    home, lock = data / "dagster_home", data / LOCK_NAME
    views = set(dg.AssetSelection.groups("warehouse").resolve(build_definitions().resolve_asset_graph()))
    first = build(dumps, data)
    try:
        wait_for(lambda: lock.exists() and f"pid {first.pid}," in lock.read_text(), 120, "the first build's lock")
        started = time.monotonic()
        second = build(dumps, data)
        refused, _ = second.communicate(timeout=120)
        assert second.returncode == 1, refused
        assert f"another build (pid {first.pid}, started" in refused and f"holds the data root {data}" in refused
        print(f"\nsecond build refused after {time.monotonic() - started:.1f} s")

        def in_warehouse_step() -> bool:  # a run of warehouse views holds the warehouse pool, its draft written
            drafts = list(data.glob(".warehouse.duckdb.*.build.draft"))
            return bool(drafts) and any(set(run.asset_selection or ()) & views for run in started_runs(home))

        wait_for(in_warehouse_step, 400, "the first build's warehouse step")
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=30)
    killed = [run.run_id for run in started_runs(home)]
    assert killed  # the dead build's runs stay STARTED: nothing else marks them
    assert list(data.glob(".warehouse.duckdb.*.build.draft"))

    again = build(dumps, data)
    output, _ = again.communicate(timeout=600)
    assert again.returncode == 0, output
    assert "of a killed build marked failed" in output and "a warehouse draft left by an interrupted build" in output
    assert "warehouse: refreshed" in output and (data / "warehouse.duckdb").exists()
    assert not list(data.glob(".warehouse.duckdb.*.draft*"))
    assert build_processes(first.pid) == []  # its code server and run workers are gone
    with dg.DagsterInstance.from_config(str(home)) as instance:
        assert all(instance.get_run_by_id(run_id).status == dg.DagsterRunStatus.FAILURE for run_id in killed)
        assert not instance.get_runs(dg.RunsFilter(statuses=[dg.DagsterRunStatus.STARTED]))
