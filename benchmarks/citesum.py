"""CiteSum candidate extraction and ROUGE scoring throughput on a generated dump (``make bench``).

Reports, on one core: Related Work candidates found per second (splitting included) and candidates
scored per second (ROUGE-1/2/L recall against the cited abstract with rouge-score, stemming on).
"""

import argparse
import json
import tempfile
import time
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--papers", type=int, default=5000)
    parser.add_argument("--workdir")
    args = parser.parse_args()

    from citeworth_assets.lib.citesum import construction as citesum
    from citeworth_assets.lib.read_issues import IssueLog
    from citeworth_assets.lib.s2orc.records import (
        ShardSource,
        papers_from_paragraph_rows,
        read_metadata,
        read_paragraphs,
    )
    from citeworth_assets.lib.s2orc.shards import discover_shards
    from citeworth_assets.lib.sentences import splitter
    from citeworth_assets.samples.s2orc import generate_sample_dump

    workdir = Path(args.workdir or tempfile.mkdtemp(prefix="citesum-bench-"))
    dump = workdir / f"dump_{args.papers}"
    if not dump.exists():
        generate_sample_dump(dump, papers=args.papers, shards=1, seed=13)
    (shard,) = discover_shards(dump)
    log = IssueLog()
    abstracts = {
        row["paper_id"]: row["abstract"]
        for row in read_metadata(ShardSource(shard.release, shard.key, shard.metadata), log)
    }
    papers = list(
        papers_from_paragraph_rows(read_paragraphs(ShardSource(shard.release, shard.key, shard.pdf_parses), log), {})
    )
    started = time.perf_counter()
    candidates, drops, counts = citesum.citation_candidates(papers, abstracts, splitter())
    extraction = time.perf_counter() - started
    started = time.perf_counter()
    scored = list(citesum.score_candidates(candidates, abstracts))
    scoring = time.perf_counter() - started
    report = {
        "papers": len(papers),
        "related_work_paragraphs": counts["related_work_paragraphs"],
        "candidates": len(candidates),
        "drops": len(drops),
        "kept": sum(citesum.passes(s) for s in scored),
        "extraction_seconds": round(extraction, 2),
        "candidates_per_second_extraction": round(len(candidates) / extraction, 1) if extraction else None,
        "scoring_seconds": round(scoring, 2),
        "candidates_per_second_rouge": round(len(scored) / scoring, 1) if scoring else None,
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "citesum.json").write_text(json.dumps(report, indent=2))
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
