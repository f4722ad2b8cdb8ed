"""The data-root lock: a second holder is refused with the first one's pid, and a killed holder leaves no lock."""

import os
import signal
import subprocess
import sys
import time

import pytest

from citeworth_assets.build.guard import LOCK_NAME, DataRootBusy, data_root_lock

REFUSED = (
    "import sys; from pathlib import Path; from citeworth_assets.build.guard import DataRootBusy, data_root_lock\n"
    "try:\n    with data_root_lock(Path(sys.argv[1])):\n        print('held')\n"
    "except DataRootBusy as error:\n    print('refused:', error)"
)


def test_a_second_build_is_refused_naming_the_first(tmp_path):
    with data_root_lock(tmp_path), data_root_lock(tmp_path):  # re-entrant within the build's own process
        refused = subprocess.run(
            [sys.executable, "-c", REFUSED, str(tmp_path)], capture_output=True, text=True, timeout=120
        )
        assert refused.stdout.startswith(f"refused: another build (pid {os.getpid()}, started "), refused.stderr
        assert f"holds the data root {tmp_path}" in refused.stdout
    taken = subprocess.run([sys.executable, "-c", REFUSED, str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert taken.stdout == "held\n", taken.stderr  # released at the end: the next build takes it


def test_a_killed_build_leaves_no_stale_lock(tmp_path):
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from pathlib import Path; from citeworth_assets.build.guard import data_root_lock\n"
            "with data_root_lock(Path(sys.argv[1])):\n    print('held', flush=True); time.sleep(60)",
            str(tmp_path),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout.readline().strip() == "held"
    with pytest.raises(DataRootBusy, match=f"pid {holder.pid}"):
        with data_root_lock(tmp_path):
            pass
    os.kill(holder.pid, signal.SIGKILL)
    holder.wait(timeout=10)
    deadline = time.monotonic() + 5
    with data_root_lock(tmp_path):  # the kernel dropped the dead process's lock
        assert (tmp_path / LOCK_NAME).read_text().startswith(f"pid {os.getpid()},")
    assert time.monotonic() < deadline


def test_views_a_dead_build_wrote_only_into_its_draft_are_recorded_as_not_built(tmp_path):
    """Issue 33 item 1: the instance records the views a killed build materialized, but they went into its build
    draft, which the next build removes; their record is wiped, so that their condition (created while missing)
    makes them again. A view the dead build did not write keeps its record."""
    import dagster as dg

    from citeworth_assets.build.guard import BUILD_PID_TAG, recover_dead_build

    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()  # a process id that no longer lives
    written, kept = dg.AssetKey(["citeworth", "sentences"]), dg.AssetKey(["citesum", "examples"])

    @dg.asset(key=written)
    def sentences() -> None: ...

    @dg.asset(key=kept)
    def examples() -> None: ...

    warehouse = tmp_path / "warehouse.duckdb"
    draft = tmp_path / f".warehouse.duckdb.{dead.pid}-0123abcd.build.draft"
    draft.write_bytes(b"draft")
    with dg.instance_for_test() as instance:
        assert dg.materialize([examples], instance=instance).success  # an earlier build's, published
        assert dg.materialize([sentences], instance=instance, tags={BUILD_PID_TAG: str(dead.pid)}).success
        done = recover_dead_build(instance, tmp_path, warehouse, [written, kept])
        assert not draft.exists()
        assert "1 warehouse views written only into that draft recorded as not built (made again)" in done
        assert instance.get_latest_materialization_event(written) is None
        assert instance.get_latest_materialization_event(kept) is not None
