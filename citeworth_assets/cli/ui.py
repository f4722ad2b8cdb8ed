"""``citeworth ui``: Dagster's UI, daemon and code server on this data root, stopped as a whole.

``dagster dev`` starts a webserver, a daemon and a code server. Run under ``make``, a SIGTERM reaches only the
outermost process, and Ctrl-C leaves the children to stop at their own pace; so this command keeps ``dagster dev``
in a session of its own and, on Ctrl-C, SIGTERM or SIGHUP, asks every process of that tree to stop, waits a few
seconds, and kills what is left. Nothing of the UI outlives the command.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import click

from citeworth_assets.cli.app import main
from citeworth_assets.cli.app import resolve_settings as _settings

GRACE_SECONDS = 8.0
# dagster dev says it is superseded by `dg dev` (a separate CLI package); the command works as before.
QUIET_WARNINGS = "ignore:Function `dev_command` is superseded"


def stop_tree(root_pid: int, grace: float = GRACE_SECONDS) -> list[int]:
    """SIGTERM to ``root_pid`` and all its descendants, SIGKILL to those still alive after ``grace`` seconds.
    Returns the pids that had to be killed."""
    import psutil

    try:
        root = psutil.Process(root_pid)
        processes = [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return []
    for process in processes:
        try:
            process.terminate()
        except psutil.NoSuchProcess:
            pass
    _, alive = psutil.wait_procs(processes, timeout=grace)
    for process in alive:
        try:
            process.kill()
        except psutil.NoSuchProcess:
            pass
    psutil.wait_procs(alive, timeout=grace)
    return [process.pid for process in alive]


def supervise(command: list[str], env: dict[str, str]) -> int:
    """Run ``command`` in its own session until it exits or this process is told to stop; then stop its tree."""
    child = subprocess.Popen(command, env=env, start_new_session=True)

    def stop(signum, frame):
        raise KeyboardInterrupt

    for name in ("SIGTERM", "SIGHUP"):
        signal.signal(getattr(signal, name), stop)
    try:
        return child.wait()
    except KeyboardInterrupt:
        click.echo("stopping the Dagster UI, daemon and code server ...", err=True)
        killed = stop_tree(child.pid)
        if killed:
            click.echo(f"killed {len(killed)} processes that did not stop within {GRACE_SECONDS:.0f} s", err=True)
        return 0


@main.command()
@click.option("--dumps", help="Dump root the sensor watches (overrides CITEWORTH_DUMPS).")
@click.option("--data", help="Data root (overrides CITEWORTH_DATA).")
@click.option("--port", default=3000, show_default=True, type=int)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to bind; 0.0.0.0 to reach the UI from other machines.",
)
def ui(dumps: str | None, data: str | None, port: int, host: str) -> None:
    """Open the Dagster UI on this data root (its instance holds the runs of `citeworth build`). Ctrl-C or SIGTERM
    stops the webserver, the daemon and the code server together."""
    import shutil

    from citeworth_assets.build.instance import code_location_args, prepare_dagster_home

    settings = _settings(dumps, data, need_dumps=False)
    home = prepare_dagster_home(settings)
    env = {**os.environ, **settings.environment(), "DAGSTER_HOME": str(home)}
    env["PYTHONWARNINGS"] = ",".join(filter(None, [env.get("PYTHONWARNINGS"), QUIET_WARNINGS]))
    dagster = shutil.which("dagster") or str(Path(sys.executable).with_name("dagster"))
    click.echo("\n".join(f"{name}={value}" for name, value in {"DAGSTER_HOME": home, **settings.environment()}.items()))
    click.echo(f"Dagster UI: http://{host}:{port} (Ctrl-C stops it)")
    sys.exit(supervise([dagster, "dev", *code_location_args(), "-h", host, "-p", str(port)], env))


def experiment_urls(tracking_uri: str, base: str) -> list[str]:
    """One line per MLflow experiment of this data root: its name, runs and the page that lists them."""
    from mlflow.tracking import MlflowClient

    lines = []
    for experiment in MlflowClient(tracking_uri).search_experiments():
        if experiment.name == "Default":
            continue
        runs = len(MlflowClient(tracking_uri).search_runs([experiment.experiment_id], max_results=1000))
        lines.append(f"  {experiment.name}: {runs} runs  {base}/#/experiments/{experiment.experiment_id}/runs")
    return lines


@main.command()
@click.option("--data", help="Data root (overrides CITEWORTH_DATA).")
@click.option("--port", default=5000, show_default=True, type=int)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind.")
def mlflow(data: str | None, port: int, host: str) -> None:
    """The MLflow UI on this data root's tracking store; prints the page of each experiment's runs (MLflow's own
    home page is its GenAI overview). Ctrl-C or SIGTERM stops it."""
    settings = _settings(None, data, need_dumps=False)
    base = f"http://{host}:{port}"
    lines = experiment_urls(settings.tracking_uri, base)
    click.echo("MLflow experiments (open these; the home page is MLflow's GenAI overview):" if lines else "")
    click.echo("\n".join(lines) or f"no runs yet in {settings.tracking_uri}: `make demo` or `citeworth build --models`")
    mlflow_cli = str(Path(sys.executable).with_name("mlflow"))
    command = [mlflow_cli, "ui", "--backend-store-uri", settings.tracking_uri]
    command += ["--default-artifact-root", str(settings.mlruns), "--host", host, "--port", str(port)]
    sys.exit(supervise(command, dict(os.environ)))
