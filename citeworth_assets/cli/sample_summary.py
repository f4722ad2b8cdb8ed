"""What ``citeworth generate-sample`` tells the user: a few readable lines, with the full summary of the generated
dump (every count per shard, reason and artefact kind, the files) kept in a JSON file beside it."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

SUMMARY_FILE = "sample_summary.json"  # at the top of the output folder, outside every release folder the sensors read
ACCEPTED = "accepted"
CLEAN = "clean"


def _counts(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{name} {count}" for name, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def summary_lines(summary: Mapping) -> list[str]:
    """Papers, shards, candidates and the realistic artefacts planted, one topic a line."""
    reasons = dict(summary.get("rejection_reasons", {}))
    accepted = reasons.pop(ACCEPTED, 0)
    kinds = dict(summary.get("paragraph_kinds", {}))
    clean = kinds.pop(CLEAN, 0)
    lines = [
        (
            f"  papers: {summary['papers']} in {summary['shards']} shards ({summary['pdf_parses']} with a PDF parse), "
            f"{summary['bytes_written'] / 1e6:.1f} MB, release {summary['release']}, seed {summary['seed']}"
        ),
        (
            f"  candidates: {accepted} pass the candidate filter, {sum(reasons.values())} rejected "
            f"({_counts(reasons) or 'none'})"
        ),
        f"  citation styles: {_counts(summary.get('citation_styles', {}))}",
        f"  paragraphs: {clean} clean, {sum(kinds.values())} with a realistic artefact ({_counts(kinds) or 'none'})",
    ]
    s2ag = summary.get("s2ag")
    if s2ag:  # on the papers line: the output stays a few lines
        faulty = len({paper for papers in s2ag["faults"].values() for paper in papers})
        lines[0] += (
            f"; S2AG release in {s2ag['root']}: {_counts(s2ag['records'])} records, "
            f"the real files' faults in {faulty} papers (listed in the full summary)"
        )
    return lines


def write_summary(out: Path, summary: Mapping) -> Path:
    path = Path(out) / SUMMARY_FILE
    path.write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path
