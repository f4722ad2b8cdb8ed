"""One annotation kind's spans over a batch of records, as sorted offset columns without repeats.

The vectorised twin of :func:`~.annotations.parse_spans` for the records it can read without a word to say beyond
``annotation_null`` and ``repeated_spans`` (what every real record has): a record whose value of the kind is not
JSON, not a list, or holds a span that is not an object with integer offsets inside its text is marked ``slow``
and left out here, so that the record-by-record reading reports it exactly as it always has.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from itertools import chain, repeat
from operator import is_, itemgetter

import numpy as np
import orjson

SHIFT = 32  # a span's batch key: record << SHIFT | start (texts are far shorter than 4G characters)
LOW = (1 << SHIFT) - 1
START, END = itemgetter("start"), itemgetter("end")
INT = {int}
ATTRIBUTE_TYPES = {dict, type(None)}
NO_ATTRIBUTES: dict = {}  # never written to


@dataclass
class SpanColumns:
    """The spans of one kind, sorted by (record, start, end), one per (record, start, end)."""

    record: np.ndarray
    start: np.ndarray
    end: np.ndarray
    attributes: list | None = None  # each kept span's attributes (the first repeat's, else the last's; none: {})
    null: np.ndarray | None = None  # per record: the value was null
    repeats: np.ndarray | None = None  # per record: repeats dropped

    @property
    def key(self) -> np.ndarray:
        return (self.record << SHIFT) | self.start

    def bounds(self, records: int) -> np.ndarray:
        """Where each record's spans start (and, at ``records``, where the last ends)."""
        return np.searchsorted(self.record, np.arange(records + 1))


def _offsets(spans: list) -> tuple[np.ndarray, np.ndarray] | None:
    """The start and end offsets when every span is an object with integer offsets; None otherwise."""
    try:  # a C array takes ints only (a float or a string is a TypeError, an int beyond int64 an OverflowError) ...
        starts = np.frombuffer(array("q", map(START, spans)), np.int64)
        ends = np.frombuffer(array("q", map(END, spans)), np.int64)
    except (KeyError, TypeError, OverflowError):
        return None
    low = np.flatnonzero((starts <= 1) | (ends <= 1)).tolist()  # ... and bools too: True and False are 1 and 0
    if (
        low
        and not set(map(type, chain(map(START, map(spans.__getitem__, low)), map(END, map(spans.__getitem__, low)))))
        <= INT
    ):
        return None
    return starts, ends


def _attributes(spans: list) -> list | None:
    found = list(map(dict.get, spans, repeat("attributes")))
    return found if set(map(type, found)) <= ATTRIBUTE_TYPES else None


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


def _lists(values: list, slow: np.ndarray) -> tuple[list, np.ndarray, np.ndarray]:
    """Each record's span list (empty where null or slow; one copy where the value is a list written out again
    whole), whether the value was null, and how many times its list was written out."""
    lists: list = [()] * len(values)
    null = np.zeros(len(values), bool)
    times = np.ones(len(values), np.int64)
    for r, value in enumerate(values):
        if value is None:
            null[r] = True
            continue
        if type(value) is str:
            k = copies(value)
            if k > 1:  # "[X]", a list not empty, is JSON exactly when "[X,X]" is, which is then it twice over
                try:
                    once = orjson.loads(value[: (len(value) - 1 - k) // k + 1] + "]")
                except orjson.JSONDecodeError:
                    once = None
                if once:
                    lists[r], times[r] = once, k
                    continue
            try:
                value = orjson.loads(value)
            except orjson.JSONDecodeError:
                slow[r] = True
                continue
        if type(value) is not list:
            slow[r] = True
        else:
            lists[r] = value
    return lists, null, times


def _arrays(lists: list, attributes: bool) -> tuple[np.ndarray, np.ndarray, list | None] | None:
    """Starts, ends (and attributes) of the spans of ``lists``, when all are well-typed; None otherwise."""
    flat = list(chain.from_iterable(lists))
    offsets = _offsets(flat)
    found = _attributes(flat) if attributes and offsets is not None else None
    if offsets is None or (attributes and found is None):
        return None
    return offsets[0], offsets[1], found


def _flat(lists: list, slow: np.ndarray, attributes: bool) -> tuple[np.ndarray, np.ndarray, list | None]:
    """The batch's starts, ends (and attributes); a record whose spans are not all well-typed is marked slow and
    its spans left out."""
    arrays = _arrays(lists, attributes)
    if arrays is not None:
        return arrays
    for r, spans in enumerate(lists):  # find the records at fault (rare)
        if spans and _arrays([spans], attributes) is None:
            slow[r] = True
            lists[r] = ()
    return _arrays(lists, attributes)


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


def span_columns(values: list, lengths: np.ndarray, slow: np.ndarray, attributes: bool) -> SpanColumns:
    """The spans of one kind of each record (``values``: its raw annotation values); records at fault are marked in
    ``slow``. A record's spans must lie within ``lengths[record]``."""
    lists, null, times = _lists(values, slow)
    start, end, found = _flat(lists, slow, attributes)
    counts = np.fromiter(map(len, lists), np.int64, len(lists))
    record = np.repeat(np.arange(len(lists), dtype=np.int64), counts)
    bad = (start < 0) | (start >= end) | (end > lengths[record])
    if bad.any():
        slow[np.unique(record[bad])] = True
    order = _order(record, start, end, ~slow[record])
    record, start, end = record[order], start[order], end[order]
    new = np.ones(len(order), bool)
    new[1:] = (record[1:] != record[:-1]) | (start[1:] != start[:-1]) | (end[1:] != end[:-1])
    repeats = np.bincount(record[~new], minlength=len(lists)) + (times - 1) * counts  # the copies are all repeats
    firsts = np.flatnonzero(new)
    kept = None
    if attributes:
        lasts = np.append(firsts, len(order))[1:] - 1
        first, last = order[firsts], order[lasts]
        absent = np.fromiter(map(is_, found, repeat(None)), bool, len(found))
        chosen = np.where(absent[first], last, first) if len(found) else first
        kept = list(map(found.__getitem__, chosen.tolist()))
        for k in np.flatnonzero(absent[chosen]).tolist():
            kept[k] = NO_ATTRIBUTES  # read as attributes without a value: lists of dicts go through C-level maps
    return SpanColumns(record[firsts], start[firsts], end[firsts], kept, null, repeats)
