"""One S2AG full text (``s2orc`` or ``s2orc_v2`` record) as the paper model of the 2020 ``pdf_parses``.

Both formats are a text with span annotations; they differ in where the texts and the bibliography are:

- ``s2orc``: ``content.text`` holds everything (title, abstract, body, bibliography) and ``content.annotations``
  the spans, keys in one word (``paragraph``, ``sectionheader``, ``bibref``, ``bibentry``, ``figureref``, ...);
- ``s2orc_v2`` (no real record is public; read from the published description): ``body`` and ``bibliography``,
  each ``{text, annotations}``, keys in snake_case (``section_header``, ``bib_ref``, ``bib_entry``, ...); title and
  authors are top-level, external ids top-level or under ``openaccessinfo``; no abstract span (the ``abstracts``
  dataset gives it).

What the 2020 reader's conventions make of them (:func:`~.paragraphs.paragraph_rows`):

- a paragraph is a ``paragraph`` span (once, however often the release repeats it; a paragraph overlapping the one
  before is dropped and counted); its ``section`` is the text of the nearest section header before it, without its
  number (2020 sections carry no number), ``""`` before the first header;
- a citation span is a ``bibref`` inside a paragraph, offsets relative to the paragraph, ``text`` from the body text,
  ``ref_id`` its attribute and ``linked_paper_id`` the ``matched_paper_id`` of the entry it names (as text); a span
  naming no entry keeps ``ref_id`` but links nowhere (counted as ``citation_without_entry``);
- a line outside every annotated block that holds citations (a footnote: the release annotates none) becomes a
  paragraph after the paper's paragraph spans (``footnote_paragraph``); a citation inside a caption or another
  block is counted (``citation_outside_paragraph``) and not kept;
- ``figureref``/``tableref`` become reference spans as the 2020 ``ref_spans``; formulas are left as the text has
  them (display formulas lie between paragraphs, as in 2020, where they are not body paragraphs).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import repeat
from operator import itemgetter

from citeworth_assets.lib.s2ag.annotations import RecordTally, Span
from citeworth_assets.lib.s2ag.paragraphs import ParagraphColumns, paragraph_rows
from citeworth_assets.lib.s2ag.texts import ID_NAMES, as_dict, record_texts, spans_of
from citeworth_assets.lib.s2orc.values import MAX_PARAGRAPH_CHARS


@dataclass
class FullText:
    """What a full-text record gives a paper, before its ``papers`` metadata is joined."""

    paper_id: str
    title: str | None
    external_ids: dict[str, str]
    abstract: str | None
    paragraphs: ParagraphColumns | None = None
    entry_links: dict[str, str | None] = field(default_factory=dict)  # bibliography entry id -> matched corpus id
    has_abstract: bool = False
    has_body_text: bool = False
    has_bib_entries: bool = False
    has_ref_entries: bool = False


def external_ids(record: dict) -> dict[str, str]:
    """The record's external ids by lower-case name (top-level ``externalids`` or under ``openaccessinfo``)."""
    ids = record.get("externalids")
    if type(ids) is not dict:
        ids = as_dict(as_dict(record.get("openaccessinfo")).get("externalids"))
    found = {}
    for name, value in ids.items():
        if value not in (None, "") and type(name) is str and name.lower() in ID_NAMES:
            found[name.lower()] = str(value)
    return found


def entry_links(entries: list[Span]) -> dict[str, str | None]:
    """Bibliography entry id -> the corpus id it is matched to, as text (None where it is matched to none); of two
    entries with one id, the first."""
    attributes = [a for a in map(itemgetter(2), entries) if a is not None]
    if not set(map(type, attributes)) <= {dict}:
        attributes = [a for a in attributes if type(a) is dict]
    ids = list(map(dict.get, attributes, repeat("id")))
    matched = list(map(dict.get, attributes, repeat("matched_paper_id")))
    if not set(map(type, ids)) <= {str}:
        ids = [None if i is None or i == "" else str(i) for i in ids]
    matched = [None if m is None or m == "" else str(m) for m in matched]
    links = dict(zip(reversed(ids), reversed(matched)))
    links.pop(None, None)
    links.pop("", None)
    return links


def _first_text(text: str, spans: list[Span]) -> str | None:
    return text[spans[0][0] : spans[0][1]].strip() if spans else None


def read_full_text(
    record: dict, paper_id: str, tally: RecordTally, max_chars: int = MAX_PARAGRAPH_CHARS, paragraphs: bool = True
) -> FullText:
    """The paper model of one record; its faults go to ``tally`` (reported once the caller flushes it).

    ``paragraphs=False`` (what ``s2orc_papers`` needs): whether there is body text, without building its rows."""
    texts = record_texts(record, tally)
    ids = external_ids(record)
    title = record.get("title") if type(record.get("title")) is str else None
    if texts is None:
        return FullText(paper_id, title, ids, None)
    body = texts.body
    entries = spans_of(texts, "entry", tally, bibliography=True)
    links = entry_links(entries)
    if paragraphs:  # the paragraphs' pass: only what the rows need (the papers' pass read the rest)
        rows = paragraph_rows(texts, paper_id, links, tally, max_chars, entries)
        return FullText(
            paper_id, title, ids, None, rows, links, has_body_text=bool(rows), has_bib_entries=bool(entries)
        )
    if title is None:
        title = _first_text(body, spans_of(texts, "title", tally))
    abstract_spans = spans_of(texts, "abstract", tally)
    figures = spans_of(texts, "figure", tally) or spans_of(texts, "table", tally)
    return FullText(
        paper_id,
        title,
        ids,
        _first_text(body, abstract_spans) or None,
        None,
        links,
        has_abstract=bool(abstract_spans),
        has_body_text=any(e - s <= max_chars for s, e, _ in spans_of(texts, "paragraph", tally)),
        has_bib_entries=bool(entries),
        has_ref_entries=bool(figures),
    )
