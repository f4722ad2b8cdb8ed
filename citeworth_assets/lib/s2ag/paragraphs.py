"""A paper's ``s2orc_paragraphs`` rows from its body text, as columns: paragraphs, their sections, citation and
reference spans, and the footnote lines that hold citations (the conventions are in :mod:`.fulltext`)."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from itertools import islice, repeat
from operator import itemgetter, le, lt, sub

from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.s2ag.annotations import RecordTally, Span, ids_as_text, without_overlaps
from citeworth_assets.lib.s2ag.texts import Texts, spans_of

np = lazy_module("numpy")


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

    def __iter__(self):
        return iter(self.rows())

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
    covered = [(s, e) for s, e, _ in blocks] + [(s, e) for k in COVERING for s, e, _ in spans_of(texts, k, quiet)]
    covered.sort()
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
        lines[footnote_line(body, s, e, before, after)] = None
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
    return ref_ids_of(list(map(itemgetter(2), spans)))


def ref_ids_of(attributes: list) -> list[str | None]:
    """The ``ref_id`` of each span's attributes, as text (None where there is none)."""
    if set(map(type, attributes)) <= {dict}:
        ref_ids = list(map(dict.get, attributes, repeat("ref_id")))
    else:
        ref_ids = [a.get("ref_id") if type(a) is dict else None for a in attributes]
    return ids_as_text(ref_ids)


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
    paragraphs = without_overlaps(spans_of(texts, "paragraph", tally), texts.keys["paragraph"], tally)
    if not paragraphs:
        return ParagraphColumns(paper_id)
    starts, ends = [p[0] for p in paragraphs], [p[1] for p in paragraphs]
    headers = spans_of(texts, "section", tally)
    header_starts = [h[0] for h in headers]
    header_texts = [body[h[0] : h[1]].strip() for h in headers] + [""]  # [-1]: before the first header
    cite_spans = spans_of(texts, "cite", tally)
    ref_spans = sorted(spans_of(texts, "figure_ref", tally) + spans_of(texts, "table_ref", tally))
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


def footnote_line(body: str, start: int, end: int, before: int, after: int) -> tuple[int, int]:
    """The line of ``body`` around the citation ``[start, end)`` that lies outside every annotated block (between
    ``before`` and ``after``), without its surrounding whitespace."""
    line_start = max(body.rfind("\n", 0, start) + 1, before)
    line_end = body.find("\n", end)
    line_end = min(len(body) if line_end < 0 else line_end, after)
    while line_start < start and body[line_start].isspace():
        line_start += 1
    while line_end > end and body[line_end - 1].isspace():
        line_end -= 1
    return line_start, line_end
