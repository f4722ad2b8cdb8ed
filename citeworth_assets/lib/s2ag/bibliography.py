"""A full text's bibliography entries with what their sub-spans say (title, authors, venue, year, matched paper)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from citeworth_assets.lib.s2ag.annotations import RecordTally, without_overlaps
from citeworth_assets.lib.s2ag.paragraphs import _by_paragraph
from citeworth_assets.lib.s2ag.texts import record_texts, spans_of

YEAR = re.compile(r"\b(1[5-9]\d\d|20\d\d)\b")


@dataclass
class BibEntry:
    """A bibliography entry with what its sub-spans say."""

    ref_id: str | None
    matched_paper_id: str | None
    title: str | None
    authors: list[str]
    venue: str | None
    year: int | None
    text: str


def bib_entries(record: dict, tally: RecordTally) -> list[BibEntry]:
    """The record's bibliography entries, each with the title, authors, venue and year of the spans inside it
    (a year from a date span, else a four-digit year in the entry's text outside its title)."""
    texts = record_texts(record, tally)
    if texts is None:
        return []
    entries = without_overlaps(spans_of(texts, "entry", tally, True), texts.keys["entry"], tally)
    starts, ends = [e[0] for e in entries], [e[1] for e in entries]
    text = texts.bibliography
    parts = {}
    for kind in ("entry_title", "entry_author", "entry_venue", "entry_date"):
        parts[kind], _outside = _by_paragraph(spans_of(texts, kind, tally, True), starts, ends)
    found = []
    for index, (start, end, attributes) in enumerate(entries):
        attributes = attributes or {}

        def texts_of(kind: str, index: int = index) -> list[str]:
            return [text[s:e].strip() for s, e, _ in parts[kind].get(index, ())]

        titles, dates = texts_of("entry_title"), texts_of("entry_date")
        title = titles[0] if titles else None
        rest = text[start:end].replace(title, " ") if title else text[start:end]
        year = YEAR.search(dates[0] if dates else rest)
        matched = attributes.get("matched_paper_id")
        found.append(
            BibEntry(
                None if attributes.get("id") is None else str(attributes["id"]),
                None if matched in (None, "") else str(matched),
                title,
                texts_of("entry_author"),
                (texts_of("entry_venue") or [None])[0],
                int(year.group(1)) if year else None,
                text[start:end],
            )
        )
    return found
