"""Running a CiteWorth rule set over papers: paper selection, batched tokenization, sentence walk.

Per paper, in the published order (seeds/001 §3.1-3.2):

1. keep body paragraphs in a permissible section with at least one citation span; the first span of
   the first kept paragraph must be numeric or year-style, and the kept paragraphs must hold more
   than 5 spans, else the paper is dropped;
2. per kept paragraph: merge adjacent spans, split sentences (fewer than 3: dropped), walk the
   sentences (see :func:`~citeworth_assets.lib.citeworth.rules.walk_sentences`).

Splitting is by far the most expensive step, so it is done only for paragraphs whose fate depends on
it: a paragraph holding a span with visible text that is not bracketed is dropped before splitting
(``citation_not_bracketed``), since its sentence is context-only whatever the boundaries. The
accepted output is exactly the published code's; only the recorded reason of a paragraph that fails
several rules may name this rule rather than, say, ``fewer_than_3_sentences``.

Every drop is a :class:`Decision` naming its rule; with ``explain`` accepted items are listed too.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from itertools import islice
from typing import Iterable, Iterator

import pyarrow as pa

from citeworth_assets.lib.citeworth.rules import (
    CHECK_WORTHY,
    NON_CHECK_WORTHY,
    CitationSpan,
    ParagraphVerdict,
    RuleSet,
    adjust_sentences,
    merge_citation_spans,
    visibly_not_bracketed,
    walk_sentences,
)
from citeworth_assets.lib.s2orc.records import PROVENANCE, PaperInput
from citeworth_assets.lib.sentences import SentenceSplitter


@dataclass
class Decision:
    level: str  # paper | paragraph
    paper_id: str
    reason: str
    paragraph_index: int | None = None
    sentence_index: int | None = None
    sentence_text: str | None = None

    def __str__(self) -> str:
        where = self.paper_id if self.paragraph_index is None else f"{self.paper_id} paragraph {self.paragraph_index}"
        sentence = f" (sentence {self.sentence_index}: {self.sentence_text!r})" if self.sentence_index is not None else ""
        return f"{where}: {self.reason}{sentence}"


@dataclass
class AcceptedParagraph:
    paragraph: dict
    verdict: ParagraphVerdict


@dataclass
class PaperResult:
    paper: PaperInput
    accepted: list[AcceptedParagraph] = field(default_factory=list)
    drops: list[Decision] = field(default_factory=list)
    paper_reason: str | None = None  # None: the paper had paragraphs to consider


def select_paragraphs(paper: PaperInput, rules: RuleSet) -> tuple[list[dict], list[Decision], str | None]:
    """Paragraphs worth cleaning, the others with their reasons, and the paper's drop reason (if dropped)."""
    selected, skipped = [], []
    spans = 0
    for paragraph in paper.paragraphs:
        index = paragraph["paragraph_index"]
        if not rules.permissible_section(paragraph["section"]):
            skipped.append(Decision("paragraph", paper.paper_id, "section_not_permissible", index))
            continue
        if not paragraph["cite_spans"]:
            skipped.append(Decision("paragraph", paper.paper_id, "no_citation_spans", index))
            continue
        if not selected and not rules.citation_format(paragraph["cite_spans"][0]["text"]):
            return [], skipped, "first_citation_not_numeric_or_year"
        selected.append(paragraph)
        spans += len(paragraph["cite_spans"])
    if spans <= 5:
        return [], skipped, "five_or_fewer_citation_spans" if selected else "no_cited_permissible_paragraph"
    return selected, skipped, None


def prepare_paragraph(paragraph: dict, doc) -> tuple[list[CitationSpan], str | None]:
    """Merged citation spans, and the reason to drop the paragraph if it is decided before splitting."""
    if paragraph.get("invalid_span_count"):
        return [], "invalid_citation_offsets"
    text = paragraph["text"]
    spans = merge_citation_spans(text, paragraph["cite_spans"], doc.to_array("IDX").tolist())
    if any(visibly_not_bracketed(span, text) for span in spans):
        return spans, "citation_not_bracketed"
    return spans, None


def judge_paragraph(paragraph: dict, spans: list[CitationSpan], bounds: list[tuple[int, int]], rules: RuleSet) -> ParagraphVerdict:
    sentences = adjust_sentences(paragraph["text"], bounds, rules)
    if len(sentences) < 3:
        return ParagraphVerdict(reason="fewer_than_3_sentences")
    return walk_sentences(paragraph["text"], sentences, spans, rules)


def clean_papers(
    papers: Iterable[PaperInput],
    rules: RuleSet,
    splitter: SentenceSplitter,
    batch_papers: int = 64,
    timings: dict[str, float] | None = None,
) -> Iterator[PaperResult]:
    """Results for each paper, in order; paragraphs are tokenized and split a batch of papers at a time.

    ``timings``, if given, accumulates seconds spent tokenizing, splitting and applying the rules.
    """
    clock = _Clock(timings)
    papers = iter(papers)
    while batch := list(islice(papers, batch_papers)):
        clock.lap(None)
        results, pending = [], []
        for paper in batch:
            selected, skipped, reason = select_paragraphs(paper, rules)
            result = PaperResult(paper, drops=skipped, paper_reason=reason)
            if reason:
                result.drops.append(Decision("paper", paper.paper_id, reason))
            results.append(result)
            pending.extend((result, paragraph) for paragraph in selected)
        clock.lap("rules")
        docs = list(splitter.tokenize(paragraph["text"] for _, paragraph in pending))
        clock.lap("tokenize")
        to_split = []
        for (result, paragraph), doc in zip(pending, docs):
            spans, reason = prepare_paragraph(paragraph, doc)
            if reason:
                _record(result, paragraph, ParagraphVerdict(reason=reason))
            else:
                to_split.append((result, paragraph, spans, doc))
        clock.lap("rules")
        bounds = splitter.sentence_bounds([item[3] for item in to_split], [item[1]["text"] for item in to_split])
        clock.lap("split")
        for (result, paragraph, spans, _), sentences in zip(to_split, bounds):
            _record(result, paragraph, judge_paragraph(paragraph, spans, sentences, rules))
        clock.lap("rules")
        for result in results:
            result.accepted.sort(key=lambda accepted: accepted.paragraph["paragraph_index"])
            result.drops.sort(key=lambda drop: -1 if drop.paragraph_index is None else drop.paragraph_index)
        yield from results


class _Clock:
    def __init__(self, timings: dict[str, float] | None):
        self.timings, self.last = timings, time.perf_counter()

    def lap(self, name: str | None) -> None:
        now = time.perf_counter()
        if self.timings is not None and name:
            self.timings[name] = self.timings.get(name, 0.0) + now - self.last
        self.last = now


def _record(result: PaperResult, paragraph: dict, verdict: ParagraphVerdict) -> None:
    if verdict.reason:
        result.drops.append(
            Decision(
                "paragraph",
                result.paper.paper_id,
                verdict.reason,
                paragraph["paragraph_index"],
                verdict.sentence_index,
                verdict.sentence_text,
            )
        )
    else:
        result.accepted.append(AcceptedParagraph(paragraph, verdict))


def release_record(result: PaperResult, accepted: AcceptedParagraph) -> dict:
    """One paragraph in the published CiteWorth release schema."""
    paragraph, provenance = accepted.paragraph, result.paper.provenance
    samples = []
    for sample in accepted.verdict.samples:
        record = {"text": sample.text, "label": sample.label, "original_text": sample.original_text, "ref_ids": sample.ref_ids}
        if sample.label != NON_CHECK_WORTHY:
            record["citation_text"] = sample.citation_text
        samples.append(record)
    return {
        "paper_id": result.paper.paper_id,
        "section_idx": paragraph["paragraph_index"],
        "file_index": provenance["shard"].rsplit("_", 1)[-1] if provenance.get("shard") else None,
        "file_offset": provenance.get("byte_offset"),
        "mag_field_of_study": result.paper.mag_field_of_study,
        "original_text": paragraph["text"],
        "section_title": paragraph["section"],
        "samples": samples,
    }


SAMPLE = pa.struct(
    [
        ("text", pa.string()),
        ("label", pa.string()),
        ("original_text", pa.string()),
        ("ref_ids", pa.list_(pa.list_(pa.string()))),
        ("citation_text", pa.list_(pa.string())),
    ]
)
PARAGRAPH_SCHEMA = pa.schema(
    [
        ("rule_set", pa.string()),
        ("paper_id", pa.string()),
        ("section_idx", pa.int32()),
        ("section_title", pa.string()),
        ("original_text", pa.string()),
        ("mag_field_of_study", pa.list_(pa.string())),
        ("file_index", pa.string()),
        ("file_offset", pa.int64()),
        ("samples", pa.list_(SAMPLE)),
        ("sentences", pa.int32()),
        ("cite_worthy", pa.int32()),
        *PROVENANCE,
    ]
)
REJECTION_SCHEMA = pa.schema(
    [
        ("rule_set", pa.string()),
        ("level", pa.string()),
        ("paper_id", pa.string()),
        ("paragraph_index", pa.int32()),
        ("reason", pa.string()),
        ("sentence_index", pa.int32()),
        ("sentence_text", pa.string()),
        ("shard", pa.string()),
        ("line", pa.int64()),
        ("byte_offset", pa.int64()),
    ]
)


def rules_key(rules: str, key: str) -> str:
    """Lake partitions of CiteWorth tables are per rule set (and shard or field), so rule sets coexist."""
    return f"{rules}.{key}"


def paragraph_row(rules: RuleSet, result: PaperResult, accepted: AcceptedParagraph) -> dict:
    """A ``citeworth_paragraphs`` lake row: the release record plus counts and provenance."""
    row = release_record(result, accepted)
    row.update(result.paper.provenance)
    row["rule_set"] = rules.name
    row["sentences"] = len(row["samples"])
    row["cite_worthy"] = sum(sample["label"] == CHECK_WORTHY for sample in row["samples"])
    return row


def rejection_rows(rules: RuleSet, result: PaperResult) -> Iterator[dict]:
    provenance = result.paper.provenance
    for drop in result.drops:
        yield {
            "rule_set": rules.name,
            **vars(drop),
            "shard": provenance.get("shard"),
            "line": provenance.get("line"),
            "byte_offset": provenance.get("byte_offset"),
        }
