"""Shard builds in parallel through the run queue: ``citeworth build --workers 1`` against ``--workers 2``
(``make bench``).

A generated dump of 4 shards is built twice, each time into a fresh data root and instance, in a fresh process.
Reported: the wall time of the shard phase (the build's ``shards: N runs in S s`` line: submitting, queueing,
one process per run, waiting), the whole build's wall time, each shard run's own time, the speed-up of the
shard phase, and whether every lake table holds the same rows. Target on a 2-core machine: at least 1.6x.
Since a shared machine may not give two free cores, the parallel capacity is measured first: the same pure-Python
loop run once alone and twice at once (2.0 on two idle cores); no speed-up can exceed it.
Results go to ``benchmarks/results/workers.json``.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"
CLI = "from citeworth_assets.cli import main; main()"


def citeworth(*args: str, env: dict | None = None) -> str:
    done = subprocess.run([sys.executable, "-c", CLI, *args], check=False, capture_output=True, text=True, env=env)
    if done.returncode:
        raise SystemExit(f"citeworth {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def spin(_=None) -> float:
    started = time.perf_counter()
    total = 0
    for number in range(20_000_000):
        total += number
    return time.perf_counter() - started


def parallel_capacity() -> float:
    """How many cores' worth of work two processes get done at once right now (2.0 on two idle cores)."""
    from multiprocessing import Pool

    alone = spin()
    with Pool(2) as pool:
        started = time.perf_counter()
        pool.map(spin, range(2))
        together = time.perf_counter() - started
    return round(2 * alone / together, 2)


def build(dumps: Path, root: Path, workers: int, attempt: int) -> dict:
    data = root / f"data_{workers}_{attempt}"
    env = {**os.environ, "DAGSTER_HOME": str(root / f"home_{workers}_{attempt}")}
    started = time.perf_counter()
    output = citeworth("build", "--dumps", str(dumps), "--data", str(data), "--workers", str(workers), env=env)
    total = time.perf_counter() - started
    shards = float(re.search(r"^shards: \d+ runs in ([\d.]+) s", output, re.MULTILINE).group(1))
    runs = [float(s) for s in re.findall(r"^\[\d+/\d+\] \S+: .* \(([\d.]+) s\)$", output, re.MULTILINE)]
    return {"workers": workers, "shard_phase_s": shards, "build_s": round(total, 1), "shard_run_s": runs, "data": data}


def median_phase(runs: list[dict]) -> dict:
    return {name: statistics.median(run[name] for run in runs) for name in ("shard_phase_s", "build_s")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "))
    parser.add_argument(
        "--papers",
        type=int,
        default=8000,
        help=(
            "papers in the dump, split over the shards (shards big enough that their work, not the run processes' "
            "start-up, dominates)"
        ),
    )
    parser.add_argument("--shards", type=int, default=4)
    parser.add_argument(
        "--repeat",
        type=int,
        default=2,
        help=(
            "builds per worker count, in the order 1 2 2 1 ... so that a change of load on a shared machine falls on "
            "both"
        ),
    )
    args = parser.parse_args()
    capacity = parallel_capacity()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        citeworth(
            "generate-sample",
            "--out",
            str(root / "dumps"),
            "--papers",
            str(args.papers),
            "--shards",
            str(args.shards),
            "--seed",
            "0",
        )
        order = [workers for attempt in range(args.repeat) for workers in ((1, 2) if attempt % 2 == 0 else (2, 1))]
        runs = [build(root / "dumps", root, workers, attempt // 2) for attempt, workers in enumerate(order)]
        from citeworth_assets.lib.lake import sorted_rows

        lakes = [sorted_rows(run.pop("data") / "lake") for run in runs]
        same = all(rows == lakes[0] for rows in lakes)
    one, two = (median_phase([run for run in runs if run["workers"] == workers]) for workers in (1, 2))
    result = {
        "cores": os.cpu_count(),
        "load_average": os.getloadavg(),
        "parallel_capacity": capacity,
        "papers": args.papers,
        "shards": args.shards,
        "runs": runs,
        "median_shard_phase_s": {"1": one["shard_phase_s"], "2": two["shard_phase_s"]},
        "median_build_s": {"1": one["build_s"], "2": two["build_s"]},
        "speedup_shard_phase": round(one["shard_phase_s"] / two["shard_phase_s"], 2),
        "speedup_build": round(one["build_s"] / two["build_s"], 2),
        "identical_lake": same,
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "workers.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    if not same:
        raise SystemExit("the lakes of --workers 1 and --workers 2 differ")


if __name__ == "__main__":
    main()
