"""One benchmark step in a fresh process, so that the peak RSS it reports is the step's own (ingest.py, s2ag.py)."""

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path


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
