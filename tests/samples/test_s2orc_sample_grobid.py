"""The generator's GROBID-style text (samples/s2orc/grobid.py) is there, and citeworth_improved handles it."""

from __future__ import annotations

import re

import pytest
from s2orc_dump import Dump, first_failed_criterion

from citeworth_assets.lib.citeworth.cleaning import clean_papers
from citeworth_assets.lib.citeworth.improvements import DANGLING_REFERENCE
from citeworth_assets.lib.citeworth.quotes import orient_quotes
from citeworth_assets.lib.citeworth.rules import CITEWORTH_2021, CITEWORTH_IMPROVED, adjust_sentences
from citeworth_assets.lib.read_issues import IssueLog
from citeworth_assets.lib.s2orc.records import (
    PaperInput,
    RecordReporter,
    paragraph_rows,
)
from citeworth_assets.lib.sentences import splitter

OPEN, CLOSE = "\u201c", "\u201d"


def first_spans(parse: dict) -> list[dict]:
    """The cite spans of the paper's first paragraph with any."""
    return next((para["cite_spans"] for para in parse["body_text"] if para["cite_spans"]), [])


def test_split_citation_groups_appear_also_as_a_papers_first_citation(dump: Dump) -> None:
    spans = [span["text"] for _, para in dump.body_paragraphs() for span in para["cite_spans"]]
    assert any(re.fullmatch(r"\[\d+,", s) for s in spans) and any(re.fullmatch(r"\d+\]", s) for s in spans)
    assert any(re.fullmatch(r"\([^()]+, (\d{4}[a-z]?|n\.d\.);", s) for s in spans)
    assert any(re.fullmatch(r"[^()]+, (\d{4}[a-z]?|n\.d\.)\)", s) for s in spans)
    firsts = [first_spans(parse)[:2] for parse in dump.pdf if len(first_spans(parse)) >= 2]
    assert (
        sum(
            re.fullmatch(r"\[\d+,", a["text"]) is not None and re.fullmatch(r"\d+\]", b["text"]) is not None
            for a, b in firsts
        )
        >= 5
    )
    assert sum(a["text"].startswith("(") and a["text"].endswith(";") for a, _ in firsts) >= 5


def test_titles_acronyms_pointer_phrases_and_quotes_appear(dump: Dump) -> None:
    titles = {para["section"] for _, para in dump.body_paragraphs()}
    assert sum("\n" in title for title in titles) >= 5
    texts = [para["text"] for _, para in dump.body_paragraphs()]
    assert any(re.search(r"\([A-Z]{2,4}, \[\d+, \d+\]\)\.", text) for text in texts)  # (DKIST, [49, 56]).
    assert any(re.search(r", see in particular \[\d+\]\.", text) for text in texts)
    reversed_quotes = [
        text for text in texts if CLOSE in text and OPEN in text and text.index(CLOSE) < text.index(OPEN)
    ]
    assert len(reversed_quotes) >= 5 and any(f" {OPEN}" in text and f"{CLOSE} " in text for text in texts)


@pytest.fixture(scope="module")
def candidates(dump: Dump) -> list[PaperInput]:
    papers = []
    for parse in dump.pdf:
        if first_failed_criterion(dump.by_id[parse["paper_id"]]) == "accepted":
            rows = list(paragraph_rows(parse, RecordReporter(IssueLog(), "sample", 1, 0, parse["paper_id"])))
            papers.append(PaperInput(parse["paper_id"], rows))
    return papers


@pytest.fixture(scope="module")
def cleaned(candidates) -> dict:
    return {
        rules.name: list(clean_papers(candidates, rules, splitter())) for rules in (CITEWORTH_2021, CITEWORTH_IMPROVED)
    }


def kept_sentences(results) -> list[str]:
    return [sample.text for result in results for accepted in result.accepted for sample in accepted.verdict.samples]


def test_no_generated_paper_raises(cleaned) -> None:
    assert not [
        drop
        for results in cleaned.values()
        for result in results
        for drop in result.drops
        if drop.reason == "internal_error"
    ]


def test_papers_starting_with_a_split_group_are_kept_only_by_the_improved_set(cleaned) -> None:
    """Papers the faithful set drops because their first citation is a GROBID fragment ('[5,', '(Park, 1988;')."""
    improved = {r.paper.paper_id: r.paper_reason for r in cleaned[CITEWORTH_IMPROVED.name]}
    fragment_first = []
    for result in cleaned["citeworth_2021"]:
        if result.paper_reason == "first_citation_not_numeric_or_year":
            first = next(
                p
                for p in result.paper.paragraphs
                if p["cite_spans"] and CITEWORTH_2021.permissible_section(p["section"])
            )
            if re.fullmatch(r"\[\d+,|\([^()]+;", first["cite_spans"][0]["text"]):
                fragment_first.append(result.paper.paper_id)
    assert len(fragment_first) >= 3
    assert all(improved[pid] != "first_citation_not_numeric_or_year" for pid in fragment_first)
    assert any(improved[pid] is None for pid in fragment_first)


def test_titles_with_line_breaks_are_permissible_to_the_improved_set(dump: Dump) -> None:
    titles = {para["section"] for _, para in dump.body_paragraphs() if "\n" in para["section"]}
    permissible = [title for title in titles if CITEWORTH_IMPROVED.permissible_section(title)]
    assert len(permissible) >= 3 and not any(CITEWORTH_2021.permissible_section(title) for title in permissible)


def test_improved_sentences_hold_no_emptied_parenthetical_or_dangling_pointer(cleaned) -> None:
    remnant = re.compile(r"[,;:]\s*[)\]]|\(\s*\)|\[\s*\]")
    faithful, improved = kept_sentences(cleaned["citeworth_2021"]), kept_sentences(cleaned[CITEWORTH_IMPROVED.name])
    assert any(remnant.search(text) for text in faithful)  # what the published rules let through
    assert not [text for text in improved if remnant.search(text)]
    assert any(re.search(r"\([A-Z]{2,4}\)\.$", text) for text in improved)  # (DKIST).
    assert any(DANGLING_REFERENCE.search(text.lower()) for text in faithful)
    assert not [text for text in improved if DANGLING_REFERENCE.search(text.lower())]


def test_reversed_quotes_no_longer_glue_generated_paragraphs(dump: Dump) -> None:
    texts = [para["text"] for _, para in dump.body_paragraphs() if orient_quotes(para["text"]) is not para["text"]]
    assert len(texts) >= 5
    nlp = splitter()
    faithful = [nlp.split(text) for text in texts]
    improved = [adjust_sentences(text, bounds, CITEWORTH_IMPROVED, nlp) for text, bounds in zip(texts, faithful)]
    assert sum(len(bounds) for bounds in faithful) < sum(len(bounds) for bounds in improved)
    for text, bounds in zip(texts, improved):
        first = text[bounds[0][0] : bounds[0][1]]
        assert first.count(OPEN) + first.count(CLOSE) == 2, first  # the opening quoted sentence stands alone
