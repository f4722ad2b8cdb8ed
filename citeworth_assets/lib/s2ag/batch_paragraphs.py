"""A batch of S2AG records' ``s2orc_paragraphs`` rows built on offset columns, for the records that need no careful
reading: what :func:`~.paragraphs.paragraph_rows` makes of them, with the same issues in the same order.

Spans stay start/end arrays of the whole batch (keyed ``record << 32 | start``) from the parse to Arrow: repeats go
with one sort per kind, paragraphs, footnote lines and section headers are found with one ``searchsorted`` each, and
offsets are made relative on the arrays. A record with anything else to report (a span out of range or overlapping,
an annotation that is not a JSON list, a paragraph too long, no text, ...) is returned as ``slow``: the caller reads
it record by record, as before.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import repeat
from operator import attrgetter, getitem

from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.s2ag.annotations import RecordTally
from citeworth_assets.lib.s2ag.footnote_columns import footnote_columns
from citeworth_assets.lib.s2ag.span_columns import LOW, SHIFT, SpanColumns, ref_ids, span_columns
from citeworth_assets.lib.s2ag.texts import EXPECTED, record_texts
from citeworth_assets.lib.s2orc.schema import ShardSource, citation_span_type, paragraph_schema, reference_span_type
from citeworth_assets.lib.s2orc.values import RecordReporter

np = lazy_module("numpy")
pa = lazy_module("pyarrow")
pc = lazy_module("pyarrow.compute")

# the kinds a paragraph row reads, in the order the record-by-record reading parses (and reports) them
KINDS = (  # kind, in the bibliography text, what a span is read as (:mod:`.span_shapes`)
    ("entry", True, "entry"),
    ("paragraph", False, "offsets"),
    ("section", False, "offsets"),
    ("cite", False, "reference"),
    ("figure_ref", False, "reference"),
    ("table_ref", False, "reference"),
)
ENTRY_ID, MATCHED = attrgetter("id"), attrgetter("matched_paper_id")
FOOTNOTES = "lines outside annotated blocks holding citations"


@dataclass
class BatchRows:
    """The rows of a batch's fast records, the record of each row, and the records left to the careful reading."""

    table: pa.Table
    row_records: np.ndarray
    slow: list[int]


def list_column(counts, children: list[pa.Array], struct: pa.StructType) -> pa.Array:
    offsets = np.concatenate(([0], np.cumsum(np.asarray(counts, np.int64))))
    return pa.ListArray.from_arrays(
        pa.array(offsets, pa.int32()), pa.StructArray.from_arrays(children, fields=list(struct))
    )


def _place(unit_key: np.ndarray, unit_record: np.ndarray, unit_end: np.ndarray, spans: SpanColumns) -> np.ndarray:
    """The position (in ``unit_key``'s order) of the unit holding each span whole; -1 where none does."""
    if not len(unit_key):
        return np.full(len(spans.start), -1, np.int64)
    j = np.searchsorted(unit_key, spans.key, "right") - 1
    at = np.maximum(j, 0)
    return np.where((j >= 0) & (unit_record[at] == spans.record) & (spans.end <= unit_end[at]), j, -1)


def _merged(a: SpanColumns, b: SpanColumns, slow: np.ndarray) -> SpanColumns:
    """Two kinds' spans as one, sorted (figure and table references); a tie is left to the careful reading."""
    record, start, end = (np.concatenate(x) for x in ((a.record, b.record), (a.start, b.start), (a.end, b.end)))
    order = np.lexsort((end, (record << SHIFT) | start))
    record, start, end = record[order], start[order], end[order]
    tie = (record[1:] == record[:-1]) & (start[1:] == start[:-1]) & (end[1:] == end[:-1])
    slow[record[1:][tie]] = True
    attributes = a.attributes + b.attributes
    return SpanColumns(record, start, end, list(map(attributes.__getitem__, order.tolist())), a.null, a.repeats)


def _slices(bodies: list[str], record: np.ndarray, start: np.ndarray, end: np.ndarray) -> list[str]:
    return list(map(getitem, map(bodies.__getitem__, record.tolist()), map(slice, start.tolist(), end.tolist())))


class _Batch:
    """The spans of a batch of records and what is found from them."""

    def __init__(self, records: list[dict], max_chars: int):
        self.n = n = len(records)
        self.slow = slow = np.zeros(n, bool)
        quiet = RecordTally(lambda kind, message: None)  # a record without text is read the careful way
        self.texts = [record_texts(record, quiet) for record in records]
        slow[[r for r, t in enumerate(self.texts) if t is None]] = True
        self.bodies = [t.body if t else "" for t in self.texts]
        body_length = np.fromiter(map(len, self.bodies), np.int64, n)
        bib_length = np.fromiter((len(t.bibliography) if t else 0 for t in self.texts), np.int64, n)
        self.spans: dict[str, SpanColumns] = {}
        for kind, in_bibliography, shape in KINDS:
            values = [
                None
                if t is None
                else (t.bibliography_annotations if in_bibliography else t.body_annotations).get(t.keys[kind])
                for t in self.texts
            ]
            self.spans[kind] = span_columns(values, bib_length if in_bibliography else body_length, slow, shape)
        paragraphs = self.spans["paragraph"]
        follows = paragraphs.record[1:] == paragraphs.record[:-1]
        slow[paragraphs.record[1:][follows & (paragraphs.start[1:] < paragraphs.end[:-1])]] = True
        slow[paragraphs.record[paragraphs.end - paragraphs.start > max_chars]] = True
        self.paragraph_bounds = paragraphs.bounds(n)
        self.refs = _merged(self.spans["figure_ref"], self.spans["table_ref"], slow)

    def units(self) -> None:
        """Paragraphs then footnote lines of each record (output order), and their order by position."""
        n, paragraphs, cites = self.n, self.spans["paragraph"], self.spans["cite"]
        key = paragraphs.key
        has_paragraphs = self.paragraph_bounds[1:] > self.paragraph_bounds[:-1]
        outside = _place(key, paragraphs.record, paragraphs.end, cites) < 0
        outside &= ~self.slow[cites.record] & has_paragraphs[cites.record]
        self.footnotes = np.zeros(n, np.int64)
        found = ([], [], [], [])  # record, start, end, paragraph_index
        if outside.any():
            outside = np.flatnonzero(outside)
            entries = self.spans["entry"]
            in_body = np.array([t is not None and t.bibliography is t.body for t in self.texts])[entries.record]
            in_body_entries = SpanColumns(entries.record[in_body], entries.start[in_body], entries.end[in_body], None)
            blocks = [paragraphs, self.spans["section"], in_body_entries]
            where = (cites.record[outside], cites.start[outside], cites.end[outside])
            records = np.unique(where[0]).tolist()
            for r, lines in footnote_columns(self.texts, records, blocks, where, self.slow).items():
                first = int(self.paragraph_bounds[r + 1] - self.paragraph_bounds[r])
                for k, (start, end) in enumerate(lines):
                    for column, value in zip(found, (r, start, end, first + k)):
                        column.append(value)
                self.footnotes[r] = len(lines)
        index = np.arange(len(key)) - self.paragraph_bounds[paragraphs.record]
        record, start, end, index = (
            np.concatenate((a, np.array(b, np.int64)))
            for a, b in zip((paragraphs.record, paragraphs.start, paragraphs.end, index), found)
        )
        order = np.lexsort((np.arange(len(record)) >= len(key), record))  # a record's paragraphs, then its notes
        self.unit_record, self.unit_start, self.unit_end, self.unit_index = (
            x[order] for x in (record, start, end, index)
        )
        by_start = np.lexsort((self.unit_start, self.unit_record))
        self.by_start = by_start
        self.unit_key = ((self.unit_record << SHIFT) | self.unit_start)[by_start]

    def place(self, spans: SpanColumns) -> np.ndarray:
        """Each span's unit (its output position), -1 where none holds it whole."""
        if not len(self.by_start):  # no record of the batch has a paragraph (a batch of one without any, say)
            return np.full(len(spans.start), -1, np.int64)
        j = _place(self.unit_key, self.unit_record[self.by_start], self.unit_end[self.by_start], spans)
        return np.where(j >= 0, self.by_start[np.maximum(j, 0)], -1)


def _span_children(batch: _Batch, spans: SpanColumns, rows: np.ndarray, keep: np.ndarray, new_row: np.ndarray):
    """(row of each kept span in output order, the spans' positions, start, end, text) with offsets made relative."""
    chosen = np.flatnonzero(keep)
    out_rows = new_row[rows[chosen]]
    order = np.argsort(out_rows, kind="stable")
    chosen, out_rows = chosen[order], out_rows[order]
    unit_starts = batch.unit_start[rows[chosen]]
    record, start, end = spans.record[chosen], spans.start[chosen], spans.end[chosen]
    return out_rows, chosen, start - unit_starts, end - unit_starts, _slices(batch.bodies, record, start, end)


def batch_paragraphs(source: ShardSource, records: list, reporters: list[RecordReporter], max_chars: int) -> BatchRows:
    """The rows of ``records`` (each with ``line``, ``offset``, ``paper_id`` and ``record``) read on columns; their
    issues reported through ``reporters``; the careful ones left in ``slow``."""
    batch = _Batch([item.record for item in records], max_chars)
    batch.units()
    cites, refs, slow = batch.spans["cite"], batch.refs, batch.slow
    cite_rows, ref_rows = batch.place(cites), batch.place(refs)
    placed = np.flatnonzero(cite_rows >= 0)
    follows = cites.record[placed[1:]] == cites.record[placed[:-1]]
    slow[cites.record[placed[1:]][follows & (cites.start[placed[1:]] < cites.end[placed[:-1]])]] = True
    keep_unit = ~slow[batch.unit_record]
    new_row = np.cumsum(keep_unit) - 1
    units = int(keep_unit.sum())
    cite_out = _span_children(batch, cites, cite_rows, (cite_rows >= 0) & ~slow[cites.record], new_row)
    ref_out = _span_children(batch, refs, ref_rows, (ref_rows >= 0) & ~slow[refs.record], new_row)
    cite_refs = ref_ids(list(map(cites.attributes.__getitem__, cite_out[1].tolist())))
    if "" in cite_refs:
        cite_refs = [None if r == "" else r for r in cite_refs]
    ref_refs = ref_ids(list(map(refs.attributes.__getitem__, ref_out[1].tolist())))
    n = batch.n
    linked, unlinked = _links(batch.spans["entry"], cites.record[cite_out[1]], cite_refs, n)
    outside = (
        np.bincount(cites.record[cite_rows < 0], minlength=n),
        np.bincount(refs.record[ref_rows < 0], minlength=n),
    )
    facts = _Facts(batch, outside, unlinked)
    for r in np.flatnonzero(~slow).tolist():
        _report(facts, batch.texts[r].keys, r, RecordTally(reporters[r]))
    kept = keep_unit.nonzero()[0]
    unit_record = batch.unit_record[kept]
    headers = batch.spans["section"]
    header_texts = list(map(str.strip, _slices(batch.bodies, headers.record, headers.start, headers.end))) + [""]
    unit_start = batch.unit_start[kept]
    last_header = np.full(len(headers.key), LOW)  # a header "holds" every unit after it: the nearest is found
    h = _place(headers.key, headers.record, last_header, SpanColumns(unit_record, unit_start, unit_start))
    h = np.where(h >= 0, h, len(header_texts) - 1)
    string, int32 = pa.string(), pa.int32()
    cite_children = [
        pa.array(cite_out[2], int32),
        pa.array(cite_out[3], int32),
        pa.array(cite_out[4], string),
        pa.array(cite_refs, string),
        linked,
    ]
    ref_children = [pa.array(ref_out[2], int32), pa.array(ref_out[3], int32), pa.array(ref_out[4], string)]
    ref_children.append(pa.array(ref_refs, string))
    rows = pa.array(unit_record)
    columns = {
        "paper_id": pa.array([item.paper_id for item in records], string).take(rows),
        "paragraph_index": pa.array(batch.unit_index[kept], int32),
        "section": pa.array(header_texts, string).take(pa.array(h)),
        "text": pa.array(_slices(batch.bodies, unit_record, unit_start, batch.unit_end[kept]), string),
        "cite_spans": list_column(np.bincount(cite_out[0], minlength=units), cite_children, citation_span_type()),
        "ref_spans": list_column(np.bincount(ref_out[0], minlength=units), ref_children, reference_span_type()),
        "invalid_span_count": pa.array(np.zeros(units, np.int32)),
        "release": pa.repeat(pa.scalar(source.release, string), units),
        "shard": pa.repeat(pa.scalar(source.shard, string), units),
        "source_file": pa.repeat(pa.scalar(source.path.name, string), units),
        "line": pa.array(np.array([item.line for item in records], np.int64)[unit_record]),
        "byte_offset": pa.array(np.array([item.offset for item in records], np.int64)[unit_record]),
    }
    table = pa.Table.from_arrays([columns[name] for name in paragraph_schema().names], schema=paragraph_schema())
    return BatchRows(table, unit_record, np.flatnonzero(slow).tolist())


def _links(entries: SpanColumns, records: np.ndarray, ref_ids: list, n: int) -> tuple[pa.Array, np.ndarray]:
    """The paper each citation links to (:func:`~.fulltext.entry_links` of its record) as a string column, and per
    record the number of citations naming no entry; a table of entry ids a record (a tuple key over the batch hashed
    far slower), the matched ids made text in Arrow (they are numbers in the release)."""
    attributes = entries.attributes
    ids = list(map(ENTRY_ID, attributes))
    if not set(map(type, ids)) <= {str}:
        ids = [None if i is None or i == "" else str(i) for i in ids]
    entry_bounds = entries.bounds(n).tolist()
    cite_bounds = np.searchsorted(records, np.arange(n + 1)).tolist()  # the citations come in record order
    found: list = []
    for r in np.flatnonzero(np.diff(cite_bounds)).tolist():  # one small table a record: strings hash once
        first, last = entry_bounds[r], entry_bounds[r + 1]
        links = dict(zip(reversed(ids[first:last]), range(last - 1, first - 1, -1)))  # of one id twice, the first
        links.pop(None, None)
        links.pop("", None)  # an entry without an id links nothing
        found += map(links.get, ref_ids[cite_bounds[r] : cite_bounds[r + 1]], repeat(-1))
    entry = np.array(found, np.int64)
    missing = entry < 0
    linked = _matched_ids(list(map(MATCHED, attributes))).take(pa.array(entry, mask=missing))
    return linked, np.bincount(records[missing], minlength=n)


def _matched_ids(matched: list) -> pa.Array:
    """Each entry's matched corpus id as text, null where there is none (or it is empty)."""
    try:
        column = pa.array(matched)
    except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError):  # numbers and text mixed, or beyond int64
        return pa.array([None if m is None or m == "" else str(m) for m in matched], pa.string())
    if pa.types.is_string(column.type):
        return pc.if_else(pc.equal(column, ""), pa.scalar(None, pa.string()), column)
    return column.cast(pa.string())


class _Facts:
    """What a batch's records have to report, as lists (an item of a list is read far faster than one of an array)."""

    def __init__(self, batch: _Batch, outside: tuple, unlinked: np.ndarray):
        self.kinds = [
            (kind, batch.spans[kind].null.tolist(), batch.spans[kind].repeats.tolist(), kind in EXPECTED)
            for kind, _, _ in KINDS
        ]
        bounds = batch.paragraph_bounds
        self.no_paragraph = (bounds[1:] == bounds[:-1]).tolist()
        self.footnotes, self.unlinked = batch.footnotes.tolist(), unlinked.tolist()
        self.cites_outside, self.refs_outside = outside[0].tolist(), outside[1].tolist()


def _report(facts: _Facts, keys: dict, r: int, tally: RecordTally) -> None:
    """A fast record's issues, added in the order the record-by-record reading adds them."""
    for kind, null, repeats, expected in facts.kinds:
        if null[r] and expected:
            tally.add("annotation_null", keys[kind])
        if repeats[r]:
            tally.add("repeated_spans", keys[kind], repeats[r])
        if kind == "paragraph" and facts.no_paragraph[r]:
            tally.flush()
            return  # no paragraph: nothing else is read
    if facts.footnotes[r]:
        tally.add("footnote_paragraph", FOOTNOTES, facts.footnotes[r])
    if facts.cites_outside[r]:
        tally.add("citation_outside_paragraph", keys["cite"], facts.cites_outside[r])
    if facts.refs_outside[r]:
        tally.add("reference_outside_paragraph", "figure/table refs", facts.refs_outside[r])
    if facts.unlinked[r]:
        tally.add("citation_without_entry", keys["cite"], facts.unlinked[r])
    tally.flush()
