"""The cluster's instance tested for real (issue 33 item 6): a throwaway PostgreSQL server (Debian's `postgresql`, on
127.0.0.1 and a free port, its files in a temporary folder) holds the Dagster storage of deploy/dagster.yaml, with
its queued run coordinator and pools (only the run launcher is the default one: processes, not pods). On it a
`citeworth build --workers 2` is killed with kill -9 (with its run workers) once a shard run has written its
cleaning, and run again; its warehouse must equal the build of the same dump on the data root's own SQLite instance,
relation by relation and row by row."""

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import dagster as dg
import duckdb
import pytest
import yaml

from citeworth_assets.lib.warehouse import relation_counts
from citeworth_assets.samples.s2orc import generate_sample_dump

pytestmark = [pytest.mark.slow, pytest.mark.ops]  # a PostgreSQL server and three builds of a small dump
pytest.importorskip("dagster_postgres", reason="the optional extra 'k8s' (pip install -e '.[k8s]') is not installed")

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
CLI = "from citeworth_assets.cli import main; main()"
RUN_ID = "run_id"  # the MLflow run of a baseline: a new one in every build, compared by presence only


def postgres_bin() -> Path | None:
    """The folder of Debian's PostgreSQL server programs (the newest version installed), if any."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name))
    found = [folder for folder in found if (folder / "initdb").exists() and (folder / "pg_ctl").exists()]
    return found[-1] if found else None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def postgres_server():
    """A PostgreSQL server of its own for the test (as the unprivileged user ``nobody`` when run as root: the server
    refuses root), reachable on 127.0.0.1 only; gives the environment deploy/dagster.yaml reads."""
    programs = postgres_bin()
    if programs is None:
        pytest.skip("PostgreSQL is not installed (Debian package postgresql; `make test-ops` installs it)")
    folder = Path(tempfile.mkdtemp(prefix="citeworth-postgres-"))
    as_user: list[str] = []
    if os.getuid() == 0:
        import pwd

        nobody = pwd.getpwnam("nobody")
        os.chown(folder, nobody.pw_uid, nobody.pw_gid)
        as_user = ["runuser", "-u", "nobody", "--"]
    port, database = free_port(), folder / "db"
    run = lambda *args: subprocess.run([*as_user, *map(str, args)], check=True, capture_output=True, timeout=120)  # noqa: E731
    try:
        run(programs / "initdb", "-D", database, "-U", "citeworth", "--auth=trust", "-E", "UTF8", "--no-sync")
        options = f"-c listen_addresses=127.0.0.1 -p {port} -k {folder} -c fsync=off -c max_connections=200"
        run(programs / "pg_ctl", "-D", database, "-l", folder / "server.log", "-w", "-o", options, "start")
        run(programs / "createdb", "-h", "127.0.0.1", "-p", port, "-U", "citeworth", "citeworth")
        yield (
            {
                "DAGSTER_PG_HOST": "127.0.0.1",
                "DAGSTER_PG_USERNAME": "citeworth",
                "DAGSTER_PG_PASSWORD": "trusted-locally",  # (trust authentication: not checked)
                "DAGSTER_PG_DB": "citeworth",
            },
            port,
        )
    finally:
        subprocess.run(
            [*as_user, str(programs / "pg_ctl"), "-D", str(database), "-m", "immediate", "stop"],
            capture_output=True,
            timeout=60,
        )
        shutil.rmtree(folder, ignore_errors=True)


def deploy_instance(home: Path, port: int) -> None:
    """deploy/dagster.yaml, with the run launcher of one machine (a process per run) and the server's port."""
    config = yaml.safe_load((DEPLOY / "dagster.yaml").read_text())
    config.pop("run_launcher")
    config["storage"]["postgres"]["postgres_db"]["port"] = port
    home.mkdir(parents=True)
    (home / "dagster.yaml").write_text(yaml.safe_dump(config, sort_keys=False))


def shard_cleaned(data: Path) -> bool:
    """Whether a shard run has written its CiteWorth paragraphs to the lake (the run still going: time to kill)."""
    return any((data / "lake" / "citeworth_paragraphs").glob("*=*"))


def build(dumps, data, env) -> subprocess.Popen:
    """A build in a process group of its own (its code server and run workers in it too)."""
    command = [sys.executable, "-c", CLI, "build", "--dumps", str(dumps), "--data", str(data), "--workers", "2"]
    return subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True
    )


def rows(warehouse: Path, relation: str) -> list[str]:
    """The relation's rows, sorted, an MLflow run id as whether there is one."""
    with duckdb.connect(str(warehouse), read_only=True) as connection:
        columns = [row[0] for row in connection.execute(f"DESCRIBE {relation}").fetchall()]
        shown = [f"{RUN_ID} IS NOT NULL" if name == RUN_ID else f'"{name}"' for name in columns]
        return sorted(map(repr, connection.execute(f"SELECT {', '.join(shown)} FROM {relation}").fetchall()))


@pytest.mark.timeout(1800)  # three builds: 4 to 10 minutes measured
def test_a_killed_build_on_postgres_is_completed_and_equals_the_sqlite_build(tmp_path, build_graph, monkeypatch):
    dumps = tmp_path / "dumps"
    generate_sample_dump(dumps, papers=40, shards=2, seed=4)
    settings, result, _, _ = build_graph(dumps, tmp_path / "sqlite")  # the data root's own SQLite instance
    assert result.failed == []
    with postgres_server() as (pg_env, port):
        home, data = tmp_path / "dagster_home", tmp_path / "postgres"
        deploy_instance(home, port)
        env = {**os.environ, **pg_env, "DAGSTER_HOME": str(home), "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
        for name, value in pg_env.items():
            monkeypatch.setenv(name, value)
        with dg.DagsterInstance.from_config(str(home)) as instance:  # (its tables made here, before the builds)
            assert type(instance.run_storage).__name__ == "PostgresRunStorage"
        first, deadline = build(dumps, data, env), time.monotonic() + 600
        try:
            while not shard_cleaned(data):
                assert first.poll() is None and time.monotonic() < deadline, first.stdout.read()
                time.sleep(0.1)
        finally:  # the build and every process it started, as a lost machine would: their runs stay STARTED
            os.killpg(first.pid, signal.SIGKILL)
            first.wait(timeout=30)
        unfinished = [dg.DagsterRunStatus.STARTED, dg.DagsterRunStatus.QUEUED, dg.DagsterRunStatus.STARTING]
        with dg.DagsterInstance.from_config(str(home)) as instance:
            left = [run.run_id for run in instance.get_runs(dg.RunsFilter(statuses=unfinished))]
        again = build(dumps, data, env)
        output, _ = again.communicate(timeout=900)
        assert again.returncode == 0, output
        with dg.DagsterInstance.from_config(str(home)) as instance:
            assert not instance.get_runs(dg.RunsFilter(statuses=unfinished))
            # a run the kill left either finished in its own process before the rerun began, or was marked failed
            marked = [run_id for run_id in left if instance.get_run_by_id(run_id).is_failure_or_canceled]
        assert ("of a killed build marked failed" in output) == bool(marked), output
        print(f"\nkilled with {len(left)} runs unfinished ({len(marked)} marked failed by the rerun):\n{output}")
    expected, counts = relation_counts(settings.warehouse), relation_counts(data / "warehouse.duckdb")
    assert counts == expected
    assert expected["citeworth.sentences"] and expected["citesum.examples"]
    differing = [name for name in expected if rows(settings.warehouse, name) != rows(data / "warehouse.duckdb", name)]
    assert differing == []
