"""arXiv LaTeX sources to unarXive 2022 papers (Saier 2019 §4.2.3): quality against the sources, speed, memory.

On ``../shared/data/arxiv-sources`` (11 real papers' sources in arXiv's bulk layout, 3 damaged submissions, and
``groundtruth.jsonl`` counted from the sources) it reports, per paper and in total:

* submissions converted (of the real ones) and the damaged ones with their reasons;
* markers recovered against the citation keys in the source (``n_cite_keys_total``), and papers with more
  markers than the source has citations (must be none);
* markers linked to a bibliography entry (the thesis: 5 % unmatched after its normalisation);
* bibliography entries recovered against the ``.bbl`` (``\\bibitem`` or biblatex ``\\entry``);
* LaTeX commands left in the body text per 1,000 words (tokens removed first);
* seconds per submission (wall, and CPU including pandoc), peak RSS, at two input sizes (the tar once and
  ``--repeat`` times) each in a fresh process;
* the rescue pass (commands and tabulars that swallowed citations passed through) against one reading.

Usage: ``python benchmarks/latex.py [--sources DIR] [--repeat 3] [--workers 1]``; figures are printed.
"""

import argparse
import json
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SOURCES = ROOT.parent / "shared" / "data" / "arxiv-sources"
COMMAND = re.compile(r"\\[A-Za-z]+")
TOKEN = re.compile(r"\{\{[a-z]+:[^{}]*\}\}")


def peak_rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def cpu_seconds() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def run(sources: Path, repeat: int, workers: int, rescue: bool) -> dict:
    """Convert the bulk tar(s) ``repeat`` times in this process; outcomes and per-paper figures."""
    from citeworth_assets.lib.arxiv_sources import runner
    from citeworth_assets.lib.arxiv_sources.archive import iter_sources

    tars = sorted(sources.glob("arXiv_src_*.tar"))
    submissions = [raw for _ in range(repeat) for raw in iter_sources(tars)]
    started_wall, started_cpu = time.perf_counter(), cpu_seconds()
    results = list(runner.convert_all(submissions, workers, rescue_citations=rescue))
    wall, cpu = time.perf_counter() - started_wall, cpu_seconds() - started_cpu
    papers = {}
    for row, record in results[: len(results) // repeat]:
        entry = {"outcome": row["outcome"], "detail": row["detail"], "seconds": row["seconds"]}
        if record:
            paper = json.loads(record)
            texts = [p["text"] for p in paper["body_text"]]
            markers = [s["ref_id"] for p in paper["body_text"] for s in p["cite_spans"]]
            markers += [s["ref_id"] for s in paper["abstract"]["cite_spans"]]
            plain = [TOKEN.sub(" ", t) for t in texts]
            entry.update(
                markers=len(markers),
                linked=sum(m in paper["bib_entries"] for m in markers),
                bib_entries=len(paper["bib_entries"]),
                words=sum(len(t.split()) for t in plain),
                commands=sum(len(COMMAND.findall(t)) for t in plain),
                salvage=row["salvage"],
            )
        papers[row["arxiv_id"]] = entry
    return {
        "submissions": len(results),
        "wall_s": round(wall, 2),
        "cpu_s": round(cpu, 2),
        "peak_rss_mb": peak_rss_mb(),
        "papers": papers,
    }


def _child(sources: Path, repeat: int, workers: int, rescue: bool) -> dict:
    command = [sys.executable, __file__, "--child", "--sources", str(sources), "--repeat", str(repeat)]
    command += ["--workers", str(workers)] + ([] if rescue else ["--no-rescue"])
    done = subprocess.run(command, capture_output=True, text=True, check=True, cwd=ROOT)
    return json.loads(done.stdout.strip().splitlines()[-1])


def quality(result: dict, truth: dict) -> dict:
    real = {i: p for i, p in result["papers"].items() if i in truth}
    converted = [i for i, p in real.items() if p["outcome"] == "converted"]
    keys = sum(truth[i]["n_cite_keys_total"] for i in real)
    markers = sum(min(real[i].get("markers", 0), truth[i]["n_cite_keys_total"]) for i in converted)
    all_markers = sum(real[i].get("markers", 0) for i in converted)
    bib_truth = sum(truth[i]["n_bibitems"] + truth[i]["n_biblatex_entries"] for i in real)
    words = sum(real[i].get("words", 0) for i in converted)
    bib_found = sum(
        min(real[i].get("bib_entries", 0), truth[i]["n_bibitems"] + truth[i]["n_biblatex_entries"]) for i in converted
    )
    return {
        "converted": f"{len(converted)}/{len(real)} ({100 * len(converted) / len(real):.1f} %)",
        "markers_vs_source_keys": f"{markers}/{keys} ({100 * markers / keys:.1f} %)",
        "papers_with_more_markers_than_citations": [
            i for i in converted if real[i]["markers"] > truth[i]["n_cite_keys_total"]
        ],
        "markers_linked": f"{sum(real[i]['linked'] for i in converted)}/{all_markers} "
        f"({100 * sum(real[i]['linked'] for i in converted) / max(all_markers, 1):.1f} %)",
        "bib_entries_vs_bbl": f"{bib_found}/{bib_truth} ({100 * bib_found / max(bib_truth, 1):.1f} %)",
        "latex_commands_per_1000_words": round(
            1000 * sum(real[i].get("commands", 0) for i in converted) / max(words, 1), 2
        ),
        "damaged": {i: (p["outcome"], p["detail"]) for i, p in result["papers"].items() if i not in truth},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sources", type=Path, default=DEFAULT_SOURCES)
    parser.add_argument("--repeat", type=int, default=3, help="the larger input: the tar this many times")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--no-rescue", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(run(args.sources, args.repeat, args.workers, not args.no_rescue)))
        return
    if not (args.sources / "groundtruth.jsonl").exists():
        sys.exit(f"no groundtruth.jsonl under {args.sources} (pass --sources)")
    truth = {}
    for line in (args.sources / "groundtruth.jsonl").read_text().splitlines():
        record = json.loads(line)
        truth[record["arxiv_id"]] = record
    small = _child(args.sources, 1, args.workers, True)
    print("per paper:")
    for ident, paper in small["papers"].items():
        expected = truth.get(ident, {})
        print(
            f"  {ident} {expected.get('id', 'damaged'):30} {paper['outcome']:16} {paper['seconds']:5.2f} s  "
            f"markers {paper.get('markers', 0)}/{expected.get('n_cite_keys_total', '-')}  "
            f"linked {paper.get('linked', 0)}  bib {paper.get('bib_entries', 0)}/"
            f"{expected.get('n_bibitems', 0) + expected.get('n_biblatex_entries', 0)}  "
            f"commands {paper.get('commands', 0)}/{paper.get('words', 0)} words  salvage {paper.get('salvage')}"
        )
    print("quality:", json.dumps(quality(small, truth), indent=2))
    one_reading = _child(args.sources, 1, args.workers, False)
    print(
        "one reading, no rescue pass:",
        json.dumps({k: v for k, v in quality(one_reading, truth).items() if k.startswith("markers")}),
    )
    large = _child(args.sources, args.repeat, args.workers, True)
    for name, result in (("x1", small), (f"x{args.repeat}", large)):
        n = result["submissions"]
        print(
            f"size {name}: {n} submissions, {result['wall_s']} s wall ({result['wall_s'] / n:.2f} s/submission), "
            f"{result['cpu_s']} CPU-s ({result['cpu_s'] / n:.2f} CPU-s/submission), peak RSS {result['peak_rss_mb']} MB"
        )


if __name__ == "__main__":
    main()
