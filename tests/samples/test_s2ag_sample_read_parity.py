"""The same sample paper read from its 2020 pdf parse and from its S2AG record gives the same paragraph rows
(section, text, citation spans with their linked paper, figure/table reference spans): what CiteWorth's paragraphs
and sentences are made of. Needs the S2AG reader (``citeworth_assets.lib.s2ag``); skipped where it is absent."""

from __future__ import annotations

import gzip
import json
from collections import Counter
from pathlib import Path

import pytest

from citeworth_assets.lib.jsonl import IssueLog
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


def _citeworth(papers: dict[str, list[dict]]) -> dict[str, tuple]:
    """Each paper's CiteWorth outcome under the paper's rule set: its drop reason, its accepted paragraphs (section,
    text) with their sentences and labels, and its paragraph drops with their reasons."""
    from citeworth_assets.lib.citeworth.cleaning import clean_papers
    from citeworth_assets.lib.citeworth.rules import rule_set
    from citeworth_assets.lib.papers import PaperInput
    from citeworth_assets.lib.sentences import splitter

    inputs = [PaperInput(paper, rows, ["Computer Science"]) for paper, rows in sorted(papers.items())]
    outcome = {}
    for result in clean_papers(inputs, rule_set("citeworth_2021"), splitter()):
        accepted = [
            (
                a.paragraph["section"],
                a.paragraph["text"],
                [(s.text, s.label, s.citation_text) for s in a.verdict.samples],
            )
            for a in result.accepted
        ]
        drops = sorted((d.reason, d.paragraph_index) for d in result.drops)
        outcome[result.paper.paper_id] = (result.paper_reason, accepted, drops)
    return outcome


@pytest.mark.parametrize("dataset", ["s2orc", "s2orc_v2"])
def test_clean_sample_papers_give_the_same_citeworth_paragraphs_and_sentences(tmp_path: Path, dataset: str) -> None:
    """Issue 30: a paper written in both layouts gives the same CiteWorth paragraphs and sentences."""
    summary = generate_sample(tmp_path, papers=60, shards=1, seed=9, layout="both")
    body_faulty = {paper for name in BODY_FAULTS for paper in summary["s2ag"]["faults"][name]}
    from_2020, from_s2ag = {}, {}
    for path in sorted((tmp_path / "20200705v1" / "full" / "pdf_parses").iterdir()):
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            for record in map(json.loads, handle):
                if int(record["paper_id"]) not in body_faulty:
                    reporter = RecordReporter(IssueLog(), path, 0, 0, record["paper_id"])
                    from_2020[record["paper_id"]] = list(paragraph_rows(record, reporter))
    for path in sorted((tmp_path / "s2ag" / DEFAULT_RELEASE / dataset).iterdir()):
        with gzip.open(path, "rb") as handle:
            for record in (json.loads(line.decode("utf-8", "replace")) for line in handle):
                if record["corpusid"] not in body_faulty:
                    paper = str(record["corpusid"])
                    tally = annotations.RecordTally(RecordReporter(IssueLog(), path, 0, 0, paper))
                    from_s2ag[paper] = fulltext.read_full_text(record, paper, tally).paragraphs
    expected, read = _citeworth(from_2020), _citeworth(from_s2ag)
    assert read == expected
    sentences = sum(len(samples) for _, accepted, _ in expected.values() for *_, samples in accepted)
    assert len(expected) >= 40 and sentences >= 100  # enough for the comparison to mean something
