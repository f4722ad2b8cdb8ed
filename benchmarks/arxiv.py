"""arXiv ingestion and citation-context throughput per core, with peak memory.

Generates an unarXive 2020 dump (default 20,000 papers, seeded) and runs each step in a fresh process
so that its peak RSS is its own:

* ``ingest``: read every paper (text, paragraphs with markers, refs.db look-ups) and every bibitem;
* ``contexts``: the published-rule contexts (1 sentence before and after, NLTK's trained English Punkt as
  nltk 3.4.5 splits, the default) of every candidate;
* ``contexts_untrained``: the same with the ``untrained`` Punkt preset;
* ``contexts_words``: the same with 50-word windows.

Generated papers are shorter than real ones, so MB/s is reported too, and the projection for unarXive's
1.1 million papers on 16 cores uses the MB/s with the mean text size of the real sample when
``--real`` points at it (``../shared/data/unarxive-2020/papers``), which is also measured directly.
Usage: ``python benchmarks/arxiv.py [--papers N] [--real DIR]``; figures are printed.
"""

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

UNARXIVE_PAPERS = 1_100_000
CORES = 16


def peak_rss_mb() -> float:
    """This process's peak RSS since its exec (VmHWM; ru_maxrss would include the forking parent's)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def run_step(name: str, folder: str) -> dict:
    from citeworth_assets.lib.arxiv import unarxive2020
    from citeworth_assets.lib.arxiv.context_extraction import contexts_2020
    from citeworth_assets.lib.arxiv.context_windows import PUBLISHED_SETTINGS, ContextWindow
    from citeworth_assets.lib.read_issues import IssueLog

    folder = Path(folder)
    size = sum(p.stat().st_size for p in folder.glob("*.txt"))
    log = IssueLog()
    started = time.perf_counter()
    papers = items = 0
    if name == "ingest":
        refs = unarxive2020.RefsDb(folder / "refs.db")
        for paper in unarxive2020.iter_papers(folder, log, refs):
            papers += 1
            items += len(paper.paragraphs)
        items += sum(1 for _ in unarxive2020.iter_references(refs, log))
    else:
        settings = {
            "contexts": PUBLISHED_SETTINGS,
            "contexts_untrained": ContextWindow("sentences", 1, 1, "untrained"),
            "contexts_words": ContextWindow("words", 50, 50),
        }[name]
        rows = contexts_2020(folder, folder / "refs.db", settings, log, published_labels=False)
        papers, items = sum(1 for _ in folder.glob("*.txt")), len(rows)
    seconds = time.perf_counter() - started
    return {
        "step": name,
        "papers": papers,
        "rows": items,
        "seconds": round(seconds, 2),
        "papers_per_s": round(papers / seconds, 1),
        "mb_per_s": round(size / 1e6 / seconds, 2),
        "mean_kb_per_paper": round(size / 1e3 / max(papers, 1), 1),
        "peak_rss_mb": peak_rss_mb(),
        "issues": log.total,
    }


def measure(name: str, folder: Path) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--step", name, "--folder", str(folder)], check=True, capture_output=True, text=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def projection(result: dict, real_kb: float | None) -> str:
    rate = result["papers_per_s"]
    if real_kb:
        rate = result["mb_per_s"] * 1000 / real_kb  # papers/s at the real mean size
    hours = UNARXIVE_PAPERS / (rate * CORES) / 3600
    return f"{hours:.2f} h for {UNARXIVE_PAPERS:,} papers on {CORES} cores ({rate:.1f} papers/s/core)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=20_000)
    parser.add_argument("--real", type=Path, default=None)
    parser.add_argument("--step")
    parser.add_argument("--folder")
    args = parser.parse_args()
    if args.step:
        print(json.dumps(run_step(args.step, args.folder)))
        return
    from citeworth_assets.samples.arxiv import write_unarxive_2020
    from citeworth_assets.samples.mag import sample_works

    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        folder, references = write_unarxive_2020(
            Path(tmp) / "dump",
            sample_works(13, 2000),
            args.papers,
            damaged=False,
            references_per_paper=(25, 45),
            filler=12,
        )
        print(f"generated {args.papers} papers, {len(references)} bibitems in {time.perf_counter() - started:.1f} s")
        real = {}
        if args.real:
            for name in ("ingest", "contexts", "contexts_untrained", "contexts_words"):
                real[name] = measure(name, args.real)
                print("real sample", json.dumps(real[name]))
        real_kb = real["ingest"]["mean_kb_per_paper"] if real else None
        for name in ("ingest", "contexts", "contexts_untrained", "contexts_words"):
            result = measure(name, folder)
            print("generated  ", json.dumps(result))
            print("  projection:", projection(result, real_kb))
            if name in real:
                print("  projection from the real sample:", projection(real[name], None))


if __name__ == "__main__":
    main()
