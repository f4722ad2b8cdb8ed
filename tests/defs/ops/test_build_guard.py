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
