"""One partition through a CiteWorth rule set: papers in, accepted paragraphs and rejections out, with the tally
that the assets report (papers, drops per reason, internal errors). Shared by the S2ORC shards and the arXiv dump
files, so both sources are cleaned and counted the same way."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from citeworth_assets.lib import lake
from citeworth_assets.lib.citeworth.cleaning import (
    INTERNAL_ERROR,
    PARAGRAPH_SCHEMA,
    REJECTION_SCHEMA,
    clean_papers,
    paragraph_row,
    rejection_rows,
    rules_key,
)

ARXIV_FILE_DIMENSION = "file"  # folders of citeworth_arxiv_*: <table>/file=<rule set>.<dump file key>/


@dataclass
class CleaningTally:
    papers: int = 0
    reasons: Counter = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)  # "<paper id> (line N): detail" of each internal error


def cleaning_writers(
    lake_root: Path, tables: tuple[str, str], rules_name: str, key: str, dimension: str = lake.SHARD_DIMENSION
):
    """The writers of one partition's accepted paragraphs and rejections (``tables``: their names), under the
    rule set's key, so that rule sets coexist; both are published only if the block succeeds."""
    accepted, rejected = tables
    keyed = rules_key(rules_name, key)
    return lake.kept_and_dropped(
        lake_root, (accepted, PARAGRAPH_SCHEMA), (rejected, REJECTION_SCHEMA), keyed, dimension
    )


def clean_partition(papers: Iterable, rules, splitter, accepted, dropped) -> CleaningTally:
    """Clean ``papers`` (:class:`PaperInput`) with ``rules``; write accepted paragraphs and rejections to the two
    writers (``.write(row)``); return what happened."""
    tally = CleaningTally()
    for result in clean_papers(papers, rules, splitter):
        tally.papers += 1
        for item in result.accepted:
            accepted.write(paragraph_row(rules, result, item))
        for row in rejection_rows(rules, result):
            tally.reasons[row["reason"]] += 1
            if row["reason"] == INTERNAL_ERROR:
                tally.errors.append(f"{row['paper_id']} (line {row['line']}): {row['detail']}")
            dropped.write(row)
    return tally


def candidate_rejection(rules_name: str, paper_id: str, criterion: str, source_file: str, line: int | None) -> dict:
    """A paper-level rejection row for a paper the CiteWorth candidate filter (CiteWorth §3.1) turned away before
    cleaning: arXiv papers reach the rule set without S2ORC's separate candidate step, so the drop is kept here."""
    return {
        "rule_set": rules_name,
        "level": "paper",
        "paper_id": paper_id,
        "paragraph_index": None,
        "reason": criterion,
        "sentence_index": None,
        "sentence_text": None,
        "detail": "CiteWorth candidate filter",
        "shard": None,
        "source_file": source_file,
        "line": line,
        "byte_offset": None,
    }
