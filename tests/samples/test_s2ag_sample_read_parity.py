"""The same sample paper read from its 2020 pdf parse and from its S2AG record gives the same paragraph rows
(section, text, citation spans with their linked paper, figure/table reference spans): what CiteWorth's paragraphs
and sentences are made of. Needs the S2AG reader (``citeworth_assets.lib.s2ag``); skipped where it is absent."""

from __future__ import annotations

import gzip
import json
from collections import Counter
from pathlib import Path

import pytest

from citeworth_assets.lib.read_issues import IssueLog
from citeworth_assets.lib.s2orc.values import RecordReporter, paragraph_rows
from citeworth_assets.samples.s2ag import BODY_FAULTS, DEFAULT_RELEASE, generate_sample

fulltext = pytest.importorskip("citeworth_assets.lib.s2ag.fulltext")
annotations = pytest.importorskip("citeworth_assets.lib.s2ag.annotations")


def _rows(rows: list[dict]) -> list[tuple]:
    return [
        (
            row["section"],
            row["text"],
            [(c["start"], c["end"], c["text"], c["linked_paper_id"]) for c in row["cite_spans"]],
            [(r["start"], r["end"], r["text"]) for r in row["ref_spans"]],
        )
        for row in rows
    ]


@pytest.mark.parametrize("dataset", ["s2orc", "s2orc_v2"])
def test_clean_sample_papers_read_the_same_from_both_layouts(tmp_path: Path, dataset: str) -> None:
    summary = generate_sample(tmp_path, papers=120, shards=2, seed=5, layout="both")
    faults = summary["s2ag"]["faults"]
    body_faulty = {paper for name in BODY_FAULTS for paper in faults[name]}
    parses = {}
    for path in sorted((tmp_path / "20200705v1" / "full" / "pdf_parses").iterdir()):
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            parses.update((record["paper_id"], record) for record in map(json.loads, handle))
    compared, issues = 0, Counter()
    for path in sorted((tmp_path / "s2ag" / DEFAULT_RELEASE / dataset).iterdir()):
        with gzip.open(path, "rb") as handle:
            for line in handle:
                record = json.loads(line.decode("utf-8", "replace"))
                paper = str(record["corpusid"])
                if record["corpusid"] in body_faulty:
                    continue
                log = IssueLog()
                tally = annotations.RecordTally(RecordReporter(log, path, 0, 0, paper))
                read = fulltext.read_full_text(record, paper, tally)
                tally.flush()
                issues.update(log.counts)
                expected = list(paragraph_rows(parses[paper], RecordReporter(IssueLog(), path, 0, 0, paper)))
                assert _rows(read.paragraphs) == _rows(expected), paper
                compared += 1
    assert compared == len(parses) - len(body_faulty)
    # clean papers show only what their 2020 form has too (missing parts, unresolved citations) and the repeats
    assert set(issues) <= {"repeated_spans", "annotation_null", "citation_without_entry"}, issues
