"""Two builds on one data root, and a `kill -9` during the warehouse step (issue 24 items 0 and 9), with real
processes: the second build is refused at once, the killed build's runs, pool slots, processes and warehouse draft
are cleaned up by the next build, which finishes with a warehouse. And reruns converge (issue 33 item 1): a queued
build of S2ORC shards with the arXiv sources, killed while its sources run or while the downstream assets follow
them, is completed by the next plain build, every warehouse relation with the row count of an uninterrupted build."""

import os
import signal
import subprocess
import sys
import time

import dagster as dg
import pytest

from citeworth_assets.build.guard import BUILD_PID_ENV, LOCK_NAME
from citeworth_assets.cli.arxiv import write_sample_dumps
from citeworth_assets.definitions import build_definitions
from citeworth_assets.lib.warehouse import relation_counts
from citeworth_assets.samples.s2orc import generate_sample_dump

pytestmark = [pytest.mark.slow, pytest.mark.ops]  # builds a small dump twice in subprocesses, killing the first

CLI = "from citeworth_assets.cli import main; main()"


def build(dumps, data, workers: int = 1, **popen):
    env = {**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    env.pop("DAGSTER_HOME", None)  # the data root's own instance
    command = [sys.executable, "-c", CLI, "build", "--dumps", str(dumps), "--data", str(data)]
    command += ["--workers", str(workers)]
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
    # the views the killed build wrote only into its draft are made again (their record wiped): every view is there
    assert {".".join(key.path) for key in views} <= set(relation_counts(data / "warehouse.duckdb"))
    assert not list(data.glob(".warehouse.duckdb.*.draft*"))
    assert build_processes(first.pid) == []  # its code server and run workers are gone
    with dg.DagsterInstance.from_config(str(home)) as instance:
        assert all(instance.get_run_by_id(run_id).status == dg.DagsterRunStatus.FAILURE for run_id in killed)
        assert not instance.get_runs(dg.RunsFilter(statuses=[dg.DagsterRunStatus.STARTED]))


def written(data, table: str) -> bool:
    """Whether a run has written a partition of the lake table (read from the lake, not the instance: opening the
    instance while the build creates it can stamp its schema twice)."""
    return any((data / "lake" / table).glob("*=*"))


@pytest.mark.timeout(2400)  # five builds (an uninterrupted one, two killed, their reruns): 5 to 18 minutes measured
def test_a_build_killed_at_any_point_is_completed_by_the_next_plain_build(tmp_path, build_graph):
    dumps = tmp_path / "dumps"
    generate_sample_dump(dumps, papers=40, shards=2, seed=3)
    write_sample_dumps(dumps, papers_2020=6, papers_2022=4, source_papers=2)
    settings, result, _, _ = build_graph(dumps, tmp_path / "uninterrupted")  # the same plan, runs in this process
    assert result.failed == []
    expected = relation_counts(settings.warehouse)
    assert expected["citesum.examples"] and expected["sciqfs.examples"] and expected["citeworth.dataset"]
    # while the sources run (a shard built, the other ones and the arXiv files under way), and while the assets
    # computed from them follow (a shard's CiteSum candidates written; the datasets and views still to come)
    for point, asset in (("sources", "citeworth_paragraphs"), ("downstream", "citesum_candidates")):
        data = tmp_path / point
        first = build(dumps, data, workers=2)
        try:
            wait_for(lambda d=data, a=asset: written(d, a), 600, f"{asset} in the build killed at {point}")
            assert first.poll() is None, f"the build finished before it could be killed at {point}"
        finally:
            first.send_signal(signal.SIGKILL)
            first.wait(timeout=30)
        again = build(dumps, data, workers=2)
        output, _ = again.communicate(timeout=900)
        assert again.returncode == 0, output
        counts = relation_counts(data / "warehouse.duckdb")
        differing = {name: (expected.get(name), counts.get(name)) for name in expected.keys() | counts.keys()}
        assert {k: v for k, v in differing.items() if v[0] != v[1]} == {}, f"killed at {point}:\n{output}"
