"""One annotation kind's spans over a batch of records, as sorted offset columns without repeats.

The vectorised twin of :func:`~.annotations.parse_spans` for the records it can read without a word to say beyond
``annotation_null`` and ``repeated_spans`` (what every real record has): a record whose value of the kind is not
JSON, not a list, or holds a span that is not an object with integer offsets inside its text is marked ``slow``
and left out here, so that the record-by-record reading reports it exactly as it always has.

Span lists are decoded into typed structs (:mod:`.span_shapes`): the parse, the type checks (a bool or a float is no
offset, attributes are an object) and leaving out the attributes nobody reads are one C pass, where a parse into
dicts had to be checked again in Python.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from itertools import repeat
from operator import attrgetter, is_

from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.s2ag.annotations import ids_as_text

np = lazy_module("numpy")
shapes = lazy_module("citeworth_assets.lib.s2ag.span_shapes")

SHIFT = 32  # a span's batch key: record << SHIFT | start (texts are far shorter than 4G characters)
LOW = (1 << SHIFT) - 1
START, END, ATTRIBUTES = attrgetter("start"), attrgetter("end"), attrgetter("attributes")


@dataclass
class SpanColumns:
    """The spans of one kind, sorted by (record, start, end), one per (record, start, end)."""

    record: np.ndarray
    start: np.ndarray
    end: np.ndarray
    attributes: list | None = None  # each kept span's attributes (the first repeat's, else the last's; none: empty)
    null: np.ndarray | None = None  # per record: the value was null
    repeats: np.ndarray | None = None  # per record: repeats dropped

    @property
    def key(self) -> np.ndarray:
        return (self.record << SHIFT) | self.start

    def bounds(self, records: int) -> np.ndarray:
        """Where each record's spans start (and, at ``records``, where the last ends)."""
        return np.searchsorted(self.record, np.arange(records + 1))


def copies(value: str) -> int:
    """``k`` when ``value`` is one JSON list written out ``k`` times over (``[X,X]``, ``[X,X,X]``: how the real files
    repeat a kind's spans), else 1. Comparing the copies is far cheaper than parsing them and typing their spans."""
    n = len(value)
    if not n or value[0] != "[" or value[-1] != "]":
        return 1
    for k in (2, 3):
        size, rest = divmod(n - 1 - k, k)  # n = 2 brackets + k copies of ``size`` + (k - 1) commas
        if rest or size <= 0 or value[size + 1] != ",":
            continue
        if value[1:65] != value[size + 2 : size + 66]:  # most lists fail on their first spans: no copy made
            continue
        first = value[1 : size + 1]
        if all(value[i * (size + 1)] == "," and value.startswith(first, i * (size + 1) + 1) for i in range(2, k)):
            if value.startswith(first, size + 2):
                return k
    return 1


def _parsed(value, shape: str):
    """The spans of a raw annotation value as ``shape`` (:data:`.span_shapes.SHAPES`), and the number of times the
    list is written out (a repeated list decoded once); None where it is not a JSON list of such spans."""
    if type(value) is not str:  # a list already (``s2orc_v2`` may give one)
        return shapes.converted(value, shape), 1
    decode, not_spans = shapes.decoder(shape), shapes.NOT_SPANS
    k = copies(value)
    if k > 1:  # "[X]", a list not empty, is valid exactly when "[X,X]" is, which is then it twice over
        try:
            once = decode(value[: (len(value) - 1 - k) // k + 1] + "]")
        except not_spans:
            once = None
        if once:
            return once, k
    try:
        return decode(value), 1
    except not_spans:
        return None, 1


@dataclass
class _Read:
    """A kind's raw spans over the batch, in reading order (those of a record at fault too: it is marked slow)."""

    start: np.ndarray
    end: np.ndarray
    attributes: list
    counts: np.ndarray  # per record: spans read
    null: np.ndarray  # per record: the value was null
    times: np.ndarray  # per record: how many times its list was written out


def _read(values: list, slow: np.ndarray, shape: str) -> _Read:
    """Each record's spans decoded and taken apart at once, while the decoded objects are fresh in the cache (holding
    a batch's decoded lists cost more than decoding them); only the offsets (and attributes) are kept. A record whose
    value is not a JSON list of ``shape`` with int64 offsets is marked ``slow``."""
    n = len(values)
    starts, ends, found = array("q"), array("q"), []  # a C array takes int64 only: an offset beyond is an error
    counts, null, times = np.zeros(n, np.int64), np.zeros(n, bool), np.ones(n, np.int64)
    attributes = shape != "offsets"
    for r, value in enumerate(values):
        if value is None:
            null[r] = True
            continue
        spans, times[r] = _parsed(value, shape)
        if spans is None:
            slow[r] = True
            continue
        size = len(starts)
        try:
            starts.extend(map(START, spans))
            ends.extend(map(END, spans))
        except OverflowError:
            del starts[size:], ends[size:]
            slow[r] = True
            continue
        if attributes:
            found.extend(map(ATTRIBUTES, spans))
        counts[r] = len(spans)
    return _Read(np.frombuffer(starts, np.int64), np.frombuffer(ends, np.int64), found, counts, null, times)


def _order(record: np.ndarray, start: np.ndarray, end: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """The positions of the kept spans sorted by (record, start, end), repeats in reading order."""
    kept = np.flatnonzero(keep)
    if not len(kept):
        return kept
    record, start, end = record[kept], start[kept], end[kept]
    if end.max() < 1 << 21 and record[-1] < 1 << 21:  # one key: record, start, end in 21 bits each
        key = (record << 42) | (start << 21) | end
        if (key[1:] > key[:-1]).all():
            return kept  # already in order, no repeat
        return kept[np.argsort(key, kind="stable")]
    return kept[np.lexsort((end, (record << SHIFT) | start))]


def span_columns(values: list, lengths: np.ndarray, slow: np.ndarray, shape: str = "offsets") -> SpanColumns:
    """The spans of one kind of each record (``values``: its raw annotation values, read as ``shape``); records at
    fault are marked in ``slow``. A record's spans must lie within ``lengths[record]``."""
    read = _read(values, slow, shape)
    start, end, found, counts = read.start, read.end, read.attributes, read.counts
    record = np.repeat(np.arange(len(values), dtype=np.int64), counts)
    bad = (start < 0) | (start >= end) | (end > lengths[record])
    if bad.any():
        slow[np.unique(record[bad])] = True
    order = _order(record, start, end, ~slow[record])
    record, start, end = record[order], start[order], end[order]
    new = np.ones(len(order), bool)
    new[1:] = (record[1:] != record[:-1]) | (start[1:] != start[:-1]) | (end[1:] != end[:-1])
    repeats = np.bincount(record[~new], minlength=len(values)) + (read.times - 1) * counts  # the copies are all repeats
    firsts = np.flatnonzero(new)
    kept = None
    if shape != "offsets":
        lasts = np.append(firsts, len(order))[1:] - 1
        first, last = order[firsts], order[lasts]
        absent = np.fromiter(map(is_, found, repeat(None)), bool, len(found))
        chosen = np.where(absent[first], last, first) if len(found) else first
        kept = list(map(found.__getitem__, chosen.tolist()))
        for k in np.flatnonzero(absent[chosen]).tolist():
            kept[k] = shapes.NO_ATTRIBUTES[shape]  # attributes without a value: one type, read with C-level maps
    return SpanColumns(record[firsts], start[firsts], end[firsts], kept, read.null, repeats)


REF_ID = attrgetter("ref_id")


def ref_ids(attributes: list) -> list[str | None]:
    """The ``ref_id`` of each :class:`~.span_shapes.ReferenceAttributes`, as text (None where there is none)."""
    return ids_as_text(list(map(REF_ID, attributes)))
