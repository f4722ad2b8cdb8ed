"""The UI path against the CLI for one S2ORC shard (``make bench``).

A shard run that the dump sensor or a UI backfill starts goes through a run worker: a new process that imports
the code location and runs ``s2orc_shard_job`` with the job's executor. ``citeworth build`` runs the same job
in its own process with ``execute_in_process``. Measured on a generated one-shard dump, each in a fresh process:

* ``import``: importing ``citeworth_assets.definitions`` (and how much of it is Dagster's own import);
* ``cli``: the shard job through ``execute_in_process``, as ``citeworth build`` runs it (the time it prints);
* ``run worker``: ``dagster job execute`` of the shard partition in a subprocess, wall clock from the process
  start to its exit (process start, code import, executor, steps), with the job's executor and, for comparison,
  with the other executors (``--executors``); and the run's duration as the UI shows it (start to end in the
  run storage, which begins once the worker has loaded the code).

Wall and CPU seconds are both reported: on a shared machine the CPU seconds are the steadier figure (except for
the forkserver executor, whose server process is never waited for, so its steps' CPU goes uncounted).
Target: run worker at most 1.3x the CLI. Results go to ``benchmarks/results/ui_path.json``.
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"
ROOT = Path(__file__).resolve().parents[1]
EXECUTOR_ENV = "CITEWORTH_BENCH_EXECUTOR"


def bench_definitions():
    """The code location with the shard job under another executor (``dagster job execute -f this -a ...``)."""
    import dagster as dg

    from citeworth_assets.definitions import defs
    from citeworth_assets.defs.s2orc.sensors import s2orc_shard_job

    executors = {
        "multiprocess": dg.multiprocess_executor,
        "forkserver": dg.multiprocess_executor.configured({"start_method": {"forkserver": {}}}),
        "in_process": dg.in_process_executor,
    }
    job = dg.define_asset_job(
        "bench_shard_job", selection=s2orc_shard_job.selection, executor_def=executors[os.environ[EXECUTOR_ENV]]
    )
    return dg.Definitions.merge(defs, dg.Definitions(jobs=[job]))


def _environment(dumps: Path, data: Path) -> dict:
    home = data / "dagster_home"
    home.mkdir(parents=True, exist_ok=True)
    (home / "dagster.yaml").write_text("telemetry:\n  enabled: false\n")
    python_path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    return {
        **os.environ,
        "PYTHONPATH": python_path,
        "DAGSTER_HOME": str(home),
        "CITEWORTH_DUMPS": str(dumps),
        "CITEWORTH_DATA": str(data),
    }


def _python(code: str, env: dict) -> dict:
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, env=env)
    return json.loads(out.stdout.strip().splitlines()[-1])


IMPORT = """
import json, sys, time
started = time.perf_counter()
import dagster
dagster_seconds = time.perf_counter() - started
import citeworth_assets.definitions
heavy = [m for m in ("spacy", "torch", "transformers", "mlflow", "sklearn", "matplotlib", "nltk", "rouge_score",
                     "scispacy", "pysbd", "pyarrow", "numpy", "duckdb", "isal") if m in sys.modules]
print(json.dumps({"seconds": time.perf_counter() - started, "dagster_seconds": dagster_seconds, "heavy": heavy}))
"""

CLI = """
import json, time
import dagster as dg
from citeworth_assets.cli.app import QUIET_RUN
from citeworth_assets.definitions import defs
from citeworth_assets.defs.s2orc.partitions import s2orc_shards
instance = dg.DagsterInstance.get()
if KEY not in instance.get_dynamic_partitions(s2orc_shards.name):
    instance.add_dynamic_partitions(s2orc_shards.name, [KEY])
started, cpu = time.perf_counter(), time.process_time()
result = defs.resolve_job_def("s2orc_shard_job").execute_in_process(
    partition_key=KEY, instance=instance, run_config=QUIET_RUN
)
print(json.dumps(
    {"seconds": time.perf_counter() - started, "cpu_seconds": time.process_time() - cpu, "success": result.success}
))
"""


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


RUN_DURATION = """
import json
import dagster as dg
(record,) = dg.DagsterInstance.get().get_run_records(limit=1)
print(json.dumps({"seconds": record.end_time - record.start_time, "status": record.dagster_run.status.value}))
"""


def run_worker(key: str, executor: str, env: dict) -> tuple[float, float, float]:
    """Wall and CPU seconds (the worker and its step processes) from starting a run process for the shard
    partition to its exit, as a launched run pays them, and the run's duration as the UI shows it (from the
    run's start, once the worker has loaded the code, to its end)."""
    target = ["-m", "citeworth_assets.definitions", "-a", "defs", "-j", "s2orc_shard_job"]
    if executor != "job":
        target = ["-f", __file__, "-a", "bench_definitions", "-j", "bench_shard_job"]
    command = [
        str(Path(sys.executable).parent / "dagster"),
        "job",
        "execute",
        *target,
        "--tags",
        json.dumps({"dagster/partition": key}),
    ]
    started, cpu = time.perf_counter(), _children_cpu()
    done = subprocess.run(command, capture_output=True, text=True, env={**env, EXECUTOR_ENV: executor})
    if done.returncode:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    wall, cpu = time.perf_counter() - started, _children_cpu() - cpu
    duration = _python(RUN_DURATION, env)
    assert duration["status"] == "SUCCESS", duration
    return wall, cpu, duration["seconds"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--papers", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each measurement; the median is reported")
    parser.add_argument(
        "--executors",
        default="job,multiprocess,forkserver,in_process",
        help="'job' is the shard job's own executor; the others redefine it for comparison",
    )
    parser.add_argument("--workdir", default=None)
    args = parser.parse_args()

    from citeworth_assets.lib.s2orc.shards import discover_shards
    from citeworth_assets.samples.s2orc import generate_sample_dump

    workdir = Path(args.workdir or tempfile.mkdtemp(prefix="citeworth-bench-ui-"))
    dumps, data = workdir / "dumps", workdir / "data"
    if not dumps.exists():
        generate_sample_dump(dumps, papers=args.papers, shards=1, seed=0)
    (shard,) = discover_shards(dumps)
    env = _environment(dumps, data)
    median = lambda values: round(statistics.median(values), 2)  # noqa: E731

    imports = [_python(IMPORT, env) for _ in range(args.repeat)]
    cli = [_python(f"KEY = {shard.key!r}\n{CLI}", env) for _ in range(args.repeat)]
    assert all(r["success"] for r in cli), cli
    cli_seconds, cli_cpu = median([r["seconds"] for r in cli]), median([r["cpu_seconds"] for r in cli])
    runs = {name: [run_worker(shard.key, name, env) for _ in range(args.repeat)] for name in args.executors.split(",")}
    workers = {name: median([timing[0] for timing in timings]) for name, timings in runs.items()}
    worker_cpu = {name: median([timing[1] for timing in timings]) for name, timings in runs.items()}
    shown = {name: median([timing[2] for timing in timings]) for name, timings in runs.items()}
    result = {
        "papers": args.papers,
        "shard": shard.key,
        "import_seconds": median([r["seconds"] for r in imports]),
        "import_dagster_seconds": median([r["dagster_seconds"] for r in imports]),
        "heavy_modules_after_import": imports[0]["heavy"],
        "cli_seconds": cli_seconds,
        "cli_cpu_seconds": cli_cpu,
        "run_worker_seconds": workers,
        "run_worker_cpu_seconds": worker_cpu,
        "ratio_to_cli": {name: round(seconds / cli_seconds, 2) for name, seconds in workers.items()},
        "cpu_ratio_to_cli": {name: round(seconds / cli_cpu, 2) for name, seconds in worker_cpu.items()},
        "run_duration_in_ui_seconds": shown,
        "ui_duration_ratio_to_cli": {name: round(seconds / cli_seconds, 2) for name, seconds in shown.items()},
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "ui_path.json").write_text(json.dumps(result, indent=2))
    print(
        f"import definitions: {result['import_seconds']} s (dagster itself {result['import_dagster_seconds']} s), "
        f"heavy modules loaded: {result['heavy_modules_after_import'] or 'none'}"
    )
    print(f"shard of {args.papers} papers, citeworth build (execute_in_process): {cli_seconds} s ({cli_cpu} s CPU)")
    for name, seconds in workers.items():
        print(
            f"  run worker, {name} executor: {seconds} s ({result['ratio_to_cli'][name]}x the CLI), "
            f"{worker_cpu[name]} s CPU ({result['cpu_ratio_to_cli'][name]}x); "
            f"run duration in the UI {shown[name]} s ({result['ui_duration_ratio_to_cli'][name]}x)"
        )


if __name__ == "__main__":
    main()
