"""One S2AG full text (``s2orc`` or ``s2orc_v2`` record) as the paper model of the 2020 ``pdf_parses``.

Both formats are a text with span annotations; they differ in where the texts and the bibliography are:

- ``s2orc``: ``content.text`` holds everything (title, abstract, body, bibliography) and ``content.annotations``
  the spans, keys in one word (``paragraph``, ``sectionheader``, ``bibref``, ``bibentry``, ``figureref``, ...);
- ``s2orc_v2`` (no real record is public; read from the published description): ``body`` and ``bibliography``,
  each ``{text, annotations}``, keys in snake_case (``section_header``, ``bib_ref``, ``bib_entry``, ...); title and
  authors are top-level, external ids top-level or under ``openaccessinfo``; no abstract span (the ``abstracts``
  dataset gives it).

What the 2020 reader's conventions make of them (:func:`paragraph_rows`):

- a paragraph is a ``paragraph`` span (once, however often the release repeats it; a paragraph overlapping the one
  before is dropped and counted); its ``section`` is the text of the nearest section header before it, without its
  number (2020 sections carry no number), ``""`` before the first header;
- a citation span is a ``bibref`` inside a paragraph, offsets relative to the paragraph, ``text`` from the body text,
  ``ref_id`` its attribute and ``linked_paper_id`` the ``matched_paper_id`` of the entry it names (as text); a span
  naming no entry keeps ``ref_id`` but links nowhere (counted as ``citation_without_entry``); one outside every
  paragraph (footnotes, captions) cannot be kept (``citation_outside_paragraph``);
- ``figureref``/``tableref`` become reference spans as the 2020 ``ref_spans``; formulas are left as the text has
  them (display formulas lie between paragraphs, as in 2020, where they are not body paragraphs).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field
from itertools import islice, repeat
from operator import itemgetter, le, lt, sub

import numpy as np

from citeworth_assets.lib.s2ag.annotations import NONE, RecordTally, Span, parse_spans, without_overlaps
from citeworth_assets.lib.s2orc.values import MAX_PARAGRAPH_CHARS

S2ORC_KEYS = {
    "paragraph": "paragraph",
    "section": "sectionheader",
    "cite": "bibref",
    "entry": "bibentry",
    "entry_title": "bibtitle",
    "entry_author": "bibauthor",
    "entry_venue": "bibvenue",
    "entry_date": "bibdate",
    "figure_ref": "figureref",
    "table_ref": "tableref",
    "figure": "figure",
    "table": "table",
    "formula": "formula",
    "abstract": "abstract",
    "title": "title",
}
V2_KEYS = {
    **{name: name for name in ("paragraph", "figure", "table", "formula", "abstract", "title")},
    "section": "section_header",
    "cite": "bib_ref",
    "entry": "bib_entry",
    "entry_title": "bib_title",
    "entry_author": "bib_author",
    "entry_venue": "bib_venue",
    "entry_date": "bib_date",
    "figure_ref": "figure_ref",
    "table_ref": "table_ref",
}
EXPECTED = ("paragraph", "cite", "entry")
WITH_ATTRIBUTES = (
    "cite",
    "entry",
    "figure_ref",
    "table_ref",
)  # the kinds whose attributes are read  # a null of these is worth a word; other kinds are null when absent
YEAR = re.compile(r"\b(1[5-9]\d\d|20\d\d)\b")
ID_NAMES = {"arxiv": "arxiv", "acl": "acl", "pubmed": "pubmed", "pubmedcentral": "pubmedcentral", "doi": "doi"}
ID_NAMES["mag"] = "mag"


@dataclass
class Texts:
    """The body text and the bibliography text (the same string for ``s2orc``) with their raw annotations."""

    body: str
    body_annotations: dict
    bibliography: str
    bibliography_annotations: dict
    keys: dict


@dataclass
class ParagraphColumns:
    """A paper's paragraph rows as columns (their spans flat, with a count per paragraph): what Arrow takes fastest."""

    paper_id: str
    index: list[int] = field(default_factory=list)
    section: list[str] = field(default_factory=list)
    text: list[str] = field(default_factory=list)
    invalid: list[int] = field(default_factory=list)
    cite_count: list[int] = field(default_factory=list)
    cite_start: list[int] = field(default_factory=list)
    cite_end: list[int] = field(default_factory=list)
    cite_text: list[str] = field(default_factory=list)
    cite_ref: list[str | None] = field(default_factory=list)
    cite_linked: list[str | None] = field(default_factory=list)
    ref_count: list[int] = field(default_factory=list)
    ref_start: list[int] = field(default_factory=list)
    ref_end: list[int] = field(default_factory=list)
    ref_text: list[str] = field(default_factory=list)
    ref_ref: list[str | None] = field(default_factory=list)
    outside: tuple[int, int] = (0, 0)  # citation and reference spans no paragraph holds

    def __len__(self) -> int:
        return len(self.index)

    def rows(self) -> list[dict]:
        """The rows as dicts (``s2orc_paragraphs`` without provenance)."""
        rows, c, r = [], 0, 0
        for i, index in enumerate(self.index):
            cites = [
                {
                    "start": self.cite_start[k],
                    "end": self.cite_end[k],
                    "text": self.cite_text[k],
                    "ref_id": self.cite_ref[k],
                    "linked_paper_id": self.cite_linked[k],
                }
                for k in range(c, c + self.cite_count[i])
            ]
            refs = [
                {
                    "start": self.ref_start[k],
                    "end": self.ref_end[k],
                    "text": self.ref_text[k],
                    "ref_id": self.ref_ref[k],
                }
                for k in range(r, r + self.ref_count[i])
            ]
            c, r = c + self.cite_count[i], r + self.ref_count[i]
            rows.append(
                {
                    "paper_id": self.paper_id,
                    "paragraph_index": index,
                    "section": self.section[i],
                    "text": self.text[i],
                    "cite_spans": cites,
                    "ref_spans": refs,
                    "invalid_span_count": self.invalid[i],
                }
            )
        return rows


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


def _dict(value) -> dict:
    return value if type(value) is dict else {}


def record_texts(record: dict, tally: RecordTally) -> Texts | None:
    """The texts of a record of either format; None (reported) when it has no text."""
    if "content" in record:
        content = _dict(record["content"])
        text = content.get("text")
        annotations = _dict(content.get("annotations"))
        if type(text) is not str:
            tally.add("missing_text", "content.text")
            return None
        return Texts(text, annotations, text, annotations, S2ORC_KEYS)
    body, bibliography = _dict(record.get("body")), _dict(record.get("bibliography"))
    text = body.get("text")
    if type(text) is not str:
        tally.add("missing_text", "body.text")
        return None
    bib_text = bibliography.get("text")
    bib_text = bib_text if type(bib_text) is str else ""
    return Texts(text, _dict(body.get("annotations")), bib_text, _dict(bibliography.get("annotations")), V2_KEYS)


def _spans(texts: Texts, kind: str, tally: RecordTally, bibliography: bool = False) -> list[Span]:
    name = texts.keys[kind]
    text, annotations = (
        (texts.bibliography, texts.bibliography_annotations)
        if bibliography
        else (
            texts.body,
            texts.body_annotations,
        )
    )
    return parse_spans(annotations.get(name), name, len(text), tally, kind in EXPECTED, kind in WITH_ATTRIBUTES)


def external_ids(record: dict) -> dict[str, str]:
    """The record's external ids by lower-case name (top-level ``externalids`` or under ``openaccessinfo``)."""
    ids = record.get("externalids")
    if type(ids) is not dict:
        ids = _dict(_dict(record.get("openaccessinfo")).get("externalids"))
    found = {}
    for name, value in ids.items():
        if value not in (None, "") and type(name) is str and name.lower() in ID_NAMES:
            found[ID_NAMES[name.lower()]] = str(value)
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
    entries = _spans(texts, "entry", tally, bibliography=True)
    links = entry_links(entries)
    if paragraphs:  # the paragraphs' pass: only what the rows need (the papers' pass read the rest)
        rows = paragraph_rows(texts, paper_id, links, tally, max_chars, entries)
        return FullText(
            paper_id, title, ids, None, rows, links, has_body_text=bool(rows), has_bib_entries=bool(entries)
        )
    if title is None:
        title = _first_text(body, _spans(texts, "title", tally))
    abstract_spans = _spans(texts, "abstract", tally)
    figures = _spans(texts, "figure", tally) or _spans(texts, "table", tally)
    return FullText(
        paper_id,
        title,
        ids,
        _first_text(body, abstract_spans) or None,
        None,
        links,
        has_abstract=bool(abstract_spans),
        has_body_text=any(e - s <= max_chars for s, e, _ in _spans(texts, "paragraph", tally)),
        has_bib_entries=bool(entries),
        has_ref_entries=bool(figures),
    )


def _inside(starts: list[int], ends: list[int], span: Span) -> int:
    """The index of the paragraph holding ``span`` whole, or -1."""
    i = bisect_right(starts, span[0]) - 1
    return i if i >= 0 and span[1] <= ends[i] else -1


def _by_paragraph(
    spans: list[Span], starts: list[int], ends: list[int], first: int = 0
) -> tuple[dict[int, list[Span]], list[Span]]:
    """Spans grouped by the paragraph that holds them (numbered from ``first``), and those no paragraph holds."""
    grouped: dict[int, list[Span]] = {}
    outside = []
    for i, span in zip(map(bisect_right, repeat(starts), map(itemgetter(0), spans)), spans):
        if i and span[1] <= ends[i - 1]:
            found = grouped.get(first + i - 1)
            if found is None:
                grouped[first + i - 1] = [span]
            else:
                found.append(span)
        else:
            outside.append(span)
    return grouped, outside


COVERING = ("figure", "table", "formula", "abstract", "title")


def footnote_lines(texts: Texts, spans: list[Span], blocks: list[Span]) -> list[Span]:
    """The lines of text outside every annotated block (``blocks``: paragraphs, headers, bibliography entries;
    figures, tables, formulas, abstract and title read here) that hold citation spans: footnotes, which the release
    leaves unannotated. A citation inside a caption, a table or another block is in none."""
    body = texts.body
    quiet = RecordTally(lambda kind, message: None)  # these kinds' faults are reported by the pass that reads them
    covered = sorted([(s, e) for s, e, _ in blocks] + [(s, e) for k in COVERING for s, e, _ in _spans(texts, k, quiet)])
    merged: list[list[int]] = []
    for start, end in covered:  # the blocks as disjoint stretches of text
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    starts = [m[0] for m in merged]
    lines = {}
    for s, e, _ in spans:
        i = bisect_right(starts, s) - 1  # the last stretch starting at or before the span
        before = merged[i][1] if i >= 0 else 0
        after = merged[i + 1][0] if i + 1 < len(merged) else len(body)
        if before > s or after < e:
            continue  # inside a block (a caption, a table, ...)
        start = max(body.rfind("\n", 0, s) + 1, before)
        end = body.find("\n", e)
        end = min(len(body) if end < 0 else end, after)
        while start < s and body[start].isspace():
            start += 1
        while end > e and body[end - 1].isspace():
            end -= 1
        lines[start, end] = None
    return [(start, end, None) for start, end in sorted(lines)]


def _placed(spans: list[Span], starts: list[int], ends: list[int]) -> tuple[list, list, list, list[Span]]:
    """(starts, ends, 1 + the rank of the unit by position, the spans) of the spans that lie within a unit; those
    that do not are left out (the caller counts them)."""
    if not spans:
        return [], [], [], spans
    span_starts, span_ends = list(map(itemgetter(0), spans)), list(map(itemgetter(1), spans))
    place = list(map(bisect_right, repeat(starts), span_starts))
    if min(place) == 0 or not all(map(le, span_ends, map(ends.__getitem__, map(sub, place, repeat(1))))):
        inside = [k for k, p in enumerate(place) if p and span_ends[k] <= ends[p - 1]]
        span_starts, span_ends = [span_starts[k] for k in inside], [span_ends[k] for k in inside]
        place, spans = [place[k] for k in inside], [spans[k] for k in inside]
    return span_starts, span_ends, place, spans


def _outside(spans: list[Span], starts: list[int], ends: list[int]) -> list[Span]:
    """The spans that no paragraph holds whole."""
    place = map(bisect_right, repeat(starts), map(itemgetter(0), spans))
    return [span for span, p in zip(spans, place) if not p or span[1] > ends[p - 1]]


def _ref_ids(spans: list[Span]) -> list[str | None]:
    attributes = list(map(itemgetter(2), spans))
    if set(map(type, attributes)) <= {dict}:
        ref_ids = list(map(dict.get, attributes, repeat("ref_id")))
    else:
        ref_ids = [a.get("ref_id") if type(a) is dict else None for a in attributes]
    if not set(map(type, ref_ids)) <= {str, NONE}:
        ref_ids = [None if r is None else str(r) for r in ref_ids]
    return ref_ids


def _plain_columns(
    body: str, paper_id: str, units: list, headers: tuple, cites: list[Span], refs: list[Span], links: dict
) -> ParagraphColumns | None:
    """The columns of a paper whose citation and reference spans all lie in its units (paragraphs, footnote lines)
    and never overlap (most papers), built with whole-list operations; None for any other paper (the careful
    path). ``units``: (paragraph_index, span) in output order."""
    unit_starts, unit_ends = [u[1][0] for u in units], [u[1][1] for u in units]
    if all(map(lt, unit_starts, islice(unit_starts, 1, None))):  # no footnote line: output order is text order
        rank, starts, ends = range(len(units)), unit_starts, unit_ends
    else:
        rank = sorted(range(len(units)), key=unit_starts.__getitem__)  # output row of each unit by position
        starts, ends = [unit_starts[k] for k in rank], [unit_ends[k] for k in rank]
    placed_cites, placed_refs = _placed(cites, starts, ends), _placed(refs, starts, ends)
    if any(map(lt, islice(placed_cites[0], 1, None), placed_cites[1])):
        return None  # overlapping citations: the careful path drops and counts them
    columns_outside = (len(cites) - len(placed_cites[3]), len(refs) - len(placed_refs[3]))
    header_starts, header_texts = headers
    nearest = map(bisect_right, repeat(header_starts), unit_starts)
    columns = ParagraphColumns(
        paper_id,
        [u[0] for u in units],
        list(map(header_texts.__getitem__, map(sub, nearest, repeat(1)))),
        list(map(body.__getitem__, map(slice, unit_starts, unit_ends))),
        [0] * len(units),
    )
    columns.outside = columns_outside
    for kind, (span_starts, span_ends, place, spans) in (("cite", placed_cites), ("ref", placed_refs)):
        rows = list(map(sub, place, repeat(1))) if type(rank) is range else [rank[p - 1] for p in place]
        ref_ids = _ref_ids(spans)
        if any(map(lt, islice(rows, 1, None), rows)):  # footnote lines come after the paragraphs: reorder
            order = sorted(range(len(rows)), key=rows.__getitem__)
            span_starts, span_ends = [span_starts[k] for k in order], [span_ends[k] for k in order]
            rows, ref_ids = [rows[k] for k in order], [ref_ids[k] for k in order]
        offsets = list(map(unit_starts.__getitem__, rows))
        setattr(columns, f"{kind}_start", list(map(sub, span_starts, offsets)))
        setattr(columns, f"{kind}_end", list(map(sub, span_ends, offsets)))
        setattr(columns, f"{kind}_text", list(map(body.__getitem__, map(slice, span_starts, span_ends))))
        setattr(
            columns, f"{kind}_count", np.bincount(rows, minlength=len(units)).tolist() if rows else [0] * len(units)
        )
        if kind == "cite":
            if "" in ref_ids:
                ref_ids = [None if r == "" else r for r in ref_ids]
            columns.cite_linked = list(map(links.get, ref_ids))
        setattr(columns, f"{kind}_ref", ref_ids)
    return columns


def paragraph_rows(
    texts: Texts,
    paper_id: str,
    links: dict[str, str | None],
    tally: RecordTally,
    max_chars: int,
    entries: list[Span] = (),
) -> ParagraphColumns:
    """The ``s2orc_paragraphs`` rows (without provenance) of the body text, in text order, as columns."""
    body = texts.body
    paragraphs = without_overlaps(_spans(texts, "paragraph", tally), texts.keys["paragraph"], tally)
    if not paragraphs:
        return ParagraphColumns(paper_id)
    starts, ends = [p[0] for p in paragraphs], [p[1] for p in paragraphs]
    headers = _spans(texts, "section", tally)
    header_starts = [h[0] for h in headers]
    header_texts = [body[h[0] : h[1]].strip() for h in headers] + [""]  # [-1]: before the first header
    cite_spans = _spans(texts, "cite", tally)
    ref_spans = sorted(_spans(texts, "figure_ref", tally) + _spans(texts, "table_ref", tally))
    units = list(enumerate(paragraphs))  # (paragraph_index, span)
    outside = _outside(cite_spans, starts, ends)
    if outside:  # footnotes: their lines become paragraphs after the paper's paragraph spans
        in_body = list(entries) if texts.bibliography is body else []  # s2orc: the bibliography is in the text
        footnotes = footnote_lines(texts, outside, paragraphs + headers + in_body)
        units += list(enumerate(footnotes, len(paragraphs)))
        if footnotes:
            tally.add("footnote_paragraph", "lines outside annotated blocks holding citations", len(footnotes))
    if max(map(sub, map(itemgetter(1), paragraphs), starts)) <= max_chars:
        headers_by_start = (header_starts, header_texts)
        columns = _plain_columns(body, paper_id, units, headers_by_start, cite_spans, ref_spans, links)
        if columns is not None:  # no overlap to sort out
            unlinked = len(columns.cite_ref) - sum(map(links.__contains__, columns.cite_ref))
            cites_outside, refs_outside = columns.outside
            if cites_outside:
                tally.add("citation_outside_paragraph", texts.keys["cite"], cites_outside)
            if refs_outside:
                tally.add("reference_outside_paragraph", "figure/table refs", refs_outside)
            if unlinked:
                tally.add("citation_without_entry", texts.keys["cite"], unlinked)
            return columns
    cites, cites_outside = _by_paragraph(cite_spans, starts, ends)
    refs, refs_outside = _by_paragraph(ref_spans, starts, ends)
    if len(units) > len(paragraphs):
        notes = [u[1] for u in units[len(paragraphs) :]]
        note_starts, note_ends = [f[0] for f in notes], [f[1] for f in notes]
        in_notes, cites_outside = _by_paragraph(cites_outside, note_starts, note_ends, len(paragraphs))
        cites.update(in_notes)
        in_notes, refs_outside = _by_paragraph(refs_outside, note_starts, note_ends, len(paragraphs))
        refs.update(in_notes)
    if cites_outside:
        tally.add("citation_outside_paragraph", texts.keys["cite"], len(cites_outside))
    if refs_outside:
        tally.add("reference_outside_paragraph", "figure/table refs", len(refs_outside))
    too_long = [unit for unit in units if unit[1][1] - unit[1][0] > max_chars]
    if too_long:
        tally.add("paragraph_too_long", f"over {max_chars} chars", len(too_long))
        units = [unit for unit in units if unit[1][1] - unit[1][0] <= max_chars]
    indices = [unit[0] for unit in units]
    unit_starts, unit_ends = [unit[1][0] for unit in units], [unit[1][1] for unit in units]
    nearest = map(bisect_right, repeat(header_starts), unit_starts)
    columns = ParagraphColumns(
        paper_id,
        indices,
        list(map(header_texts.__getitem__, map(sub, nearest, repeat(1)))),
        list(map(body.__getitem__, map(slice, unit_starts, unit_ends))),
    )
    invalid_counts, cite_counts, ref_counts = columns.invalid, columns.cite_count, columns.ref_count
    cite_start, cite_end, cite_text = columns.cite_start.append, columns.cite_end.append, columns.cite_text.append
    cite_ref, cite_linked = columns.cite_ref.append, columns.cite_linked.append
    unlinked = overlapping = 0
    for index, start in zip(indices, unit_starts):
        invalid = kept = 0
        last_end = -1
        for s, e, attributes in cites.get(index, ()):
            if s < last_end:
                invalid += 1
                continue
            last_end = e
            ref_id = None if attributes is None else attributes.get("ref_id")
            if ref_id is not None and type(ref_id) is not str:
                ref_id = str(ref_id)
            if ref_id in links:
                cite_linked(links[ref_id])
            else:
                cite_linked(None)
                unlinked += 1
                if ref_id == "":
                    ref_id = None
            cite_start(s - start)
            cite_end(e - start)
            cite_text(body[s:e])
            cite_ref(ref_id)
            kept += 1
        cite_counts.append(kept)
        invalid_counts.append(invalid)
        overlapping += invalid
        spans = refs.get(index, ())
        for s, e, attributes in spans:
            ref_id = None if attributes is None else attributes.get("ref_id")
            columns.ref_start.append(s - start)
            columns.ref_end.append(e - start)
            columns.ref_text.append(body[s:e])
            columns.ref_ref.append(ref_id if ref_id is None or type(ref_id) is str else str(ref_id))
        ref_counts.append(len(spans))
    if overlapping:
        tally.add("span_overlap", texts.keys["cite"], overlapping)
    if unlinked:
        tally.add("citation_without_entry", texts.keys["cite"], unlinked)
    return columns


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
    entries = without_overlaps(_spans(texts, "entry", tally, True), texts.keys["entry"], tally)
    starts, ends = [e[0] for e in entries], [e[1] for e in entries]
    text = texts.bibliography
    parts = {}
    for kind in ("entry_title", "entry_author", "entry_venue", "entry_date"):
        parts[kind], _outside = _by_paragraph(_spans(texts, kind, tally, True), starts, ends)
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
