"""S2ORC-style parsed papers (pdf_parses records or the lake's paragraph rows) as :class:`ParsedPaper`.

S2ORC marks citations as character spans in paragraphs, where Science-Parse gives the citing
sentence. The context of a span is therefore the sentence of its paragraph that contains the span's
start (the same splitter later splits the paper into the example's sentences, so the two agree);
offsets become relative to that sentence. A span running past its sentence's end is clipped there.

A cited paper's abstract comes through the bibliography entry's ``linked_paper_id`` and a mapping
paper_id -> abstract given by the caller (S2ORC metadata, or any catalogue).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from citeworth_assets.lib.read_issues import IssueLog
from citeworth_assets.lib.s2orc.records import RecordReporter, paragraph_rows
from citeworth_assets.lib.sciqfs.tables import (
    ParsedMention,
    ParsedPaper,
    ParsedReference,
)

SentenceBounds = Callable[[str], list[tuple[int, int]]]


def _bib_titles(bib_entries) -> dict[str, str | None]:
    if not isinstance(bib_entries, dict):
        return {}
    return {
        str(ref_id): entry.get("title") if isinstance(entry, dict) and isinstance(entry.get("title"), str) else None
        for ref_id, entry in bib_entries.items()
    }


def _containing(bounds: list[tuple[int, int]], position: int) -> tuple[int, int] | None:
    for start, end in bounds:
        if start <= position < end:
            return start, end
    return None


def paper_from_paragraphs(
    paper_id: str,
    paragraphs: Iterable[dict],
    split: SentenceBounds,
    cited_abstracts: Mapping[str, str],
    bib_titles: Mapping[str, str | None] | None = None,
    title: str | None = None,
    abstract: str | None = None,
    source: str = "",
) -> ParsedPaper:
    """A paper from paragraph rows shaped like the lake's ``s2orc_paragraphs`` (cite spans with
    ``ref_id`` and ``linked_paper_id``), in paragraph order."""
    bib_titles = bib_titles or {}
    sections, references, mentions = [], {}, []
    for row in paragraphs:
        text = row["text"]
        sections.append(text)
        spans = row.get("cite_spans") or []
        bounds = split(text) if spans else []
        for span in spans:
            ref_id = span.get("ref_id")
            if not ref_id:
                continue  # a marker the parser could not resolve to a bibliography entry
            sentence = _containing(bounds, span["start"])
            if sentence is None:
                continue  # the span starts in whitespace between sentences
            first, last = sentence
            linked = span.get("linked_paper_id")
            if ref_id not in references:
                references[ref_id] = ParsedReference(
                    internal_id=ref_id,
                    title=bib_titles.get(ref_id),
                    abstract=cited_abstracts.get(linked) if linked else None,
                    linked_paper_id=linked,
                )
            mentions.append(
                ParsedMention(ref_id, text[first:last], span["start"] - first, min(span["end"], last) - first)
            )
    return ParsedPaper(paper_id, title, abstract, sections, list(references.values()), mentions, source)


def paper_from_pdf_parse(
    record: dict,
    split: SentenceBounds,
    cited_abstracts: Mapping[str, str],
    log: IssueLog,
    source: str | Path = "",
    line: int | None = None,
    title: str | None = None,
) -> ParsedPaper | None:
    """A paper from one pdf_parses (or CORD-19 pdf_json) record; None (counted) without a paper_id.

    Damaged spans and paragraphs are repaired or skipped and counted by the S2ORC reader's rules.
    """
    paper_id = record.get("paper_id")
    report = RecordReporter(log, Path(source), line, None, str(paper_id) if paper_id else None)
    if not paper_id:
        report("missing_field", "record has no paper_id; skipped")
        return None
    abstract_paragraphs = record.get("abstract") if isinstance(record.get("abstract"), list) else []
    abstract = " ".join(
        p["text"] for p in abstract_paragraphs if isinstance(p, dict) and isinstance(p.get("text"), str)
    )
    if title is None and isinstance(record.get("metadata"), dict):  # CORD-19 keeps the title here
        title = record["metadata"].get("title") or None
    rows = list(paragraph_rows(record, report))
    return paper_from_paragraphs(
        str(paper_id),
        rows,
        split,
        cited_abstracts,
        _bib_titles(record.get("bib_entries")),
        title=title,
        abstract=abstract or None,
        source=str(source),
    )
