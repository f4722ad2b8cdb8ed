"""S2ORC pdf_parses records to Arrow ``s2orc_paragraphs`` rows, built column by column.

The body text of a batch of records is flattened into paragraphs and spans, and every rule that drops or reports
something is checked over the whole batch at once: the bibliography is an object, the body text a list of
paragraphs whose text is a string within the length limit, the spans lists of objects whose integer offsets lie
within their paragraph. A batch that passes goes to Arrow from these flat columns, with the silent repairs of
the rules (no section, a span's text from ``mention`` or from its paragraph) made on the columns. A batch that
does not is halved until the records that fail are alone; each of those is read by
:func:`~.values.paragraph_rows`, which drops, repairs and reports exactly as a record-by-record reading does.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import chain, repeat
from operator import itemgetter

from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.s2orc.batch import NONE, SourceRecords, odd_positions
from citeworth_assets.lib.s2orc.schema import citation_span_type, paragraph_schema, reference_span_type
from citeworth_assets.lib.s2orc.values import paragraph_rows

np = lazy_module("numpy")
pa = lazy_module("pyarrow")

NO_SPANS: list = []  # the spans of a paragraph without the key; never modified
NO_ENTRY: dict = {}  # the bibliography entry of a span whose ref_id has none; never modified
PARAGRAPH_FIELDS = itemgetter("text", "section", "cite_spans", "ref_spans")


@dataclass
class _Spans:
    """The spans of a run of paragraphs as flat columns."""

    counts: list[int]  # spans per paragraph
    paragraph: np.ndarray  # the paragraph of each span
    start: np.ndarray
    end: np.ndarray
    text: list[str]
    ref_id: list[str | None]

    def array(self, struct: pa.StructType, linked: list | None = None) -> pa.Array:
        children = [pa.array(self.start, pa.int32()), pa.array(self.end, pa.int32())]
        children += [pa.array(self.text, pa.string()), pa.array(self.ref_id, pa.string())]
        if linked is not None:
            children.append(pa.array(linked, pa.string()))
        offsets = np.concatenate(([0], np.cumsum(self.counts, dtype=np.int32)))
        values = pa.StructArray.from_arrays(children, fields=list(struct))
        return pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), values)


def _spans(span_lists: Sequence, texts: Sequence[str], lengths: np.ndarray) -> _Spans | None:
    """The spans of the paragraphs, or None when one of them is not a list of spans within their paragraph."""
    if not set(map(type, span_lists)) <= {list}:
        return None
    spans = list(chain.from_iterable(span_lists))
    if not set(map(type, spans)) <= {dict}:
        return None
    starts, ends = list(map(dict.get, spans, repeat("start"))), list(map(dict.get, spans, repeat("end")))
    if not (set(map(type, starts)) <= {int} and set(map(type, ends)) <= {int}):
        return None
    counts = list(map(len, span_lists))
    paragraph = np.repeat(np.arange(len(span_lists)), counts)
    try:
        start, end = np.array(starts, np.int64), np.array(ends, np.int64)
    except OverflowError:
        return None
    if not np.all((start >= 0) & (start <= end) & (end <= lengths[paragraph])):
        return None
    text = list(map(dict.get, spans, repeat("text")))
    for i in odd_positions(text, {str}):
        mention = spans[i].get("mention")
        text[i] = mention if type(mention) is str else texts[paragraph[i]][start[i] : end[i]]
    ref_id = list(map(dict.get, spans, repeat("ref_id")))
    if not set(map(type, ref_id)) <= {str, NONE}:
        ref_id = [value if type(value) is str else None for value in ref_id]
    return _Spans(counts, paragraph, start, end, text, ref_id)


def _linked_ids(bibs: list[dict], spans_per_record: list[int], ref_ids: list) -> list:
    """The S2ORC paper each citation span's bibliography entry links to, as text (None where it links nowhere)."""
    entries = list(map(dict.get, chain.from_iterable(map(repeat, bibs, spans_per_record)), ref_ids, repeat(NO_ENTRY)))
    if set(map(type, entries)) <= {dict}:
        links = list(map(dict.get, entries, repeat("link")))
    else:  # an entry that is not an object links nowhere
        links = [entry.get("link") if type(entry) is dict else None for entry in entries]
    if not set(map(type, links)) <= {str, NONE}:
        links = [None if link is None else str(link) for link in links]
    return links


def _paragraph_fields(paragraphs: list[dict]) -> list[Sequence]:
    """Text, section, citation spans and reference spans of each paragraph, in one pass over the paragraphs;
    field by field (no spans where the key is missing) when a paragraph lacks one."""
    try:
        return list(zip(*map(PARAGRAPH_FIELDS, paragraphs))) or [(), (), (), ()]
    except KeyError:
        get = partial(map, dict.get, paragraphs)
        return [list(get(repeat("text"))), list(get(repeat("section")))] + [
            list(get(repeat(key), repeat(NO_SPANS))) for key in ("cite_spans", "ref_spans")
        ]


def _clean_batch(batch: SourceRecords, max_chars: int) -> pa.RecordBatch | None:
    """The paragraph rows of a batch in which no rule has anything to drop or report, else None."""
    records = batch.records
    bibs, bodies = (
        list(map(dict.get, records, repeat("bib_entries"))),
        list(map(dict.get, records, repeat("body_text"))),
    )
    if not (set(map(type, bibs)) <= {dict} and set(map(type, bodies)) <= {list}):
        return None
    paragraphs = list(chain.from_iterable(bodies))
    if not set(map(type, paragraphs)) <= {dict}:
        return None
    texts, sections, cite_lists, ref_lists = _paragraph_fields(paragraphs)
    if not set(map(type, texts)) <= {str}:
        return None
    lengths = np.fromiter(map(len, texts), np.int64, len(texts))
    if len(texts) and lengths.max() > max_chars:
        return None
    cites, refs = _spans(cite_lists, texts, lengths), _spans(ref_lists, texts, lengths)
    if cites is None or refs is None:
        return None
    per_record = np.fromiter(map(len, bodies), np.int64, len(bodies))
    record = np.repeat(np.arange(len(records)), per_record)
    cites_per_record = np.bincount(record, weights=cites.counts, minlength=len(records)).astype(np.int64).tolist()
    if not set(map(type, sections)) <= {str}:
        sections = [section if isinstance(section, str) else "" for section in sections]
    index = np.arange(len(texts)) - np.repeat(np.cumsum(per_record) - per_record, per_record)
    columns = {
        "paper_id": pa.array(batch.paper_ids, pa.string()).take(pa.array(record, pa.int64())),
        "paragraph_index": pa.array(index, pa.int32()),
        "section": pa.array(sections, pa.string()),
        "text": pa.array(texts, pa.string()),
        "cite_spans": cites.array(citation_span_type(), _linked_ids(bibs, cites_per_record, cites.ref_id)),
        "ref_spans": refs.array(reference_span_type()),
        "invalid_span_count": pa.array(np.zeros(len(texts), np.int32)),
        **batch.provenance(per_record),
    }
    return pa.RecordBatch.from_arrays([columns[name] for name in paragraph_schema().names], schema=paragraph_schema())


def _record_rows(batch: SourceRecords, max_chars: int) -> pa.RecordBatch:
    """The paragraph rows of a single record, read by the per-record rules (which report what they repair)."""
    (record,) = batch.records
    provenance = batch.source.provenance(batch.lines[0], batch.offsets[0])
    rows = []
    for row in paragraph_rows(record, batch.at_field(0).reporter(0), max_chars):
        row.update(provenance)
        rows.append(row)
    return pa.RecordBatch.from_pylist(rows, schema=paragraph_schema())


def _pieces(batch: SourceRecords, max_chars: int) -> Iterator[pa.RecordBatch]:
    built = _clean_batch(batch, max_chars)
    if built is not None:
        yield built
    elif len(batch) == 1:
        yield _record_rows(batch, max_chars)
    else:  # halve until the records with something to report are alone; order is kept
        middle = len(batch) // 2
        yield from _pieces(batch.subset(0, middle), max_chars)
        yield from _pieces(batch.subset(middle, len(batch)), max_chars)


def paragraph_table(batch: SourceRecords, max_chars: int) -> pa.Table:
    """``s2orc_paragraphs`` rows with provenance of a batch of pdf_parses records, in file order."""
    return pa.Table.from_batches(list(_pieces(batch, max_chars)), schema=paragraph_schema())
