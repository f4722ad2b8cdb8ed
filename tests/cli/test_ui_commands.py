"""`citeworth ui` stops as a whole: no webserver, daemon or code server outlives it."""

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import psutil
import pytest

from citeworth_assets.cli.ui import stop_tree


@pytest.mark.slow  # a few seconds: make test runs it, make test-fast leaves it out
def test_stop_tree_kills_what_ignores_sigterm():
    # a child that ignores SIGTERM, with a grandchild: both must be gone after the grace period
    parent = subprocess.Popen(
        ["sh", "-c", "trap '' TERM; sleep 120 & wait"], start_new_session=True, stdout=subprocess.DEVNULL
    )
    time.sleep(0.3)
    tree = [parent.pid, *(p.pid for p in psutil.Process(parent.pid).children(recursive=True))]
    assert len(tree) == 2
    killed = stop_tree(parent.pid, grace=1.0)
    parent.wait(timeout=5)
    assert parent.pid in killed
    assert not any(psutil.pid_exists(pid) and psutil.Process(pid).status() != "zombie" for pid in tree)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.ops  # dagster dev, its webserver, daemon and code server started and stopped (about 17 s)
def test_sigterm_stops_the_ui_the_daemon_and_the_code_server(tmp_path: Path):
    port = _free_port()
    env = {**os.environ, "DAGSTER_HOME": str(tmp_path / "home")}
    command = [sys.executable, "-m", "citeworth_assets.cli", "ui", "--dumps", str(tmp_path / "dumps")]
    command += ["--data", str(tmp_path / "data"), "--port", str(port)]
    ui = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.time() + 120
        while time.time() < deadline:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/server_info", timeout=2)
                break
            except OSError:
                assert ui.poll() is None, ui.stdout.read()
                time.sleep(1)
        else:
            pytest.fail("the UI did not answer within 120 s")
        tree = [p.pid for p in psutil.Process(ui.pid).children(recursive=True)]
        assert len(tree) >= 3  # dagster dev, the webserver, the daemon (and the code server)
        ui.send_signal(signal.SIGTERM)  # to the outermost process only, as make passes it on
        ui.wait(timeout=30)
        time.sleep(0.5)
        alive = [pid for pid in tree if psutil.pid_exists(pid) and psutil.Process(pid).status() != "zombie"]
        assert alive == []
        assert "SupersessionWarning" not in ui.stdout.read()
    finally:
        if ui.poll() is None:
            stop_tree(ui.pid, grace=1.0)


@pytest.mark.slow  # a few seconds: make test runs it, make test-fast leaves it out
def test_mlflow_prints_each_experiments_runs_page(tmp_path: Path):
    from mlflow.tracking import MlflowClient

    from citeworth_assets.cli.ui import experiment_urls

    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    client = MlflowClient(uri)
    experiment = client.create_experiment("citeworth", artifact_location=str(tmp_path / "mlruns"))
    client.set_terminated(client.create_run(experiment).info.run_id)
    (line,) = experiment_urls(uri, "http://127.0.0.1:5000")
    assert line.split() == ["citeworth:", "1", "runs", f"http://127.0.0.1:5000/#/experiments/{experiment}/runs"]
