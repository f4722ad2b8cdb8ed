"""What the step benchmarks (ingest.py, s2ag.py) share: each step in a fresh process, so that the peak RSS it reports
is the step's own, their options, and how they run, save and print their measurements."""

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"


def run_step(script: str, name: str, dump: Path, data: Path) -> dict:
    """Run ``script --step name`` in a new interpreter; its last output line is :func:`step_result`'s JSON."""
    out = subprocess.run(
        [sys.executable, script, "--step", name, "--dump", str(dump), "--data", str(data)],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def step_result(name: str, started: float, cpu_started: float, papers: int) -> dict:
    """What a step reports: wall and CPU seconds since ``started`` / ``cpu_started``, papers, peak RSS."""
    return {
        "step": name,
        "seconds": round(time.perf_counter() - started, 3),
        "cpu_seconds": round(time.process_time() - cpu_started, 3),
        "papers": papers,
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


def arguments(sizes: str, sizes_help: str) -> argparse.ArgumentParser:
    """The options every step benchmark takes: ``--step`` (run one step here), its ``--dump`` and ``--data``, the
    input ``--sizes`` and a ``--workdir``; a benchmark adds its own."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--step")
    parser.add_argument("--dump")
    parser.add_argument("--data")
    parser.add_argument("--sizes", default=sizes, help=sizes_help)
    parser.add_argument("--workdir", default=None)
    return parser


def measure_sizes(
    args: argparse.Namespace, step: Callable, measure: Callable, name: str, prefix: str
) -> list[dict] | None:
    """With ``--step``, run that step here and print its result for :func:`run_step` and return None; else
    ``measure(size, workdir)`` for each of ``--sizes`` in ``--workdir`` (a new folder named ``prefix...`` by default),
    written to ``results/<name>.json`` and returned."""
    if args.step:
        print(json.dumps(step(args.step, args.dump, args.data)))
        return None
    workdir = Path(args.workdir or tempfile.mkdtemp(prefix=prefix))
    results = [measure(int(size), workdir) for size in args.sizes.split(",")]
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{name}.json").write_text(json.dumps(results, indent=2))
    return results


def print_results(
    results: list[dict], columns: list[tuple[str, str, int]], more: Callable[[dict], Iterable[str]] = lambda r: ()
) -> None:
    """A table of one row per measured size (``columns``: header, result key, width), each followed by its steps'
    CPU and wall seconds and peak RSS, then by the lines ``more`` gives for it."""
    print(" ".join(f"{header:>{width}}" for header, _, width in columns))
    for r in results:
        print(" ".join(f"{r[key]:>{width}}" for _, key, width in columns))
        steps = r["steps"].items()
        print(
            "         "
            + ", ".join(
                f"{n} {s['cpu_seconds']:.2f} CPU s ({s['seconds']:.2f} wall)/{s['peak_rss_mb']:.0f}MB" for n, s in steps
            )
        )
        for line in more(r):
            print(line)
