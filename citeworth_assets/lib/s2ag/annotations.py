"""S2AG annotation values: span lists over a text, parsed, checked and deduplicated, each fault counted.

An annotation value of the ``s2orc`` dataset is null or a JSON *string* holding a list of ``{start, end,
attributes}``; ``s2orc_v2`` is described the same way, and a value that is already a list is taken as it is. What
the released files hold (and what is done with it):

- every span two or three times (a known fault of the release): one span is kept per ``(start, end)`` (the one
  with attributes, if the repeats differ); the repeats of a record are one ``repeated_spans`` issue with their count;
- ``null``: none of this kind (reported as ``annotation_null`` only for the kinds a paper is expected to have);
- a string that is not JSON, or JSON that is not a list: ``annotation_invalid_json`` / ``annotation_bad_type``,
  the kind read as empty;
- a span whose offsets are not integers or lie outside the text, or are empty: ``span_out_of_range``, dropped.

Issues are tallied per record and kind and reported once each with the count (a paper holds hundreds of spans).
"""

from __future__ import annotations

from itertools import islice, repeat
from operator import itemgetter, le, lt

import orjson

from citeworth_assets.lib.s2orc.values import RecordReporter

Span = tuple[int, int, dict | None]  # start, end, attributes
NONE = type(None)


def ids_as_text(ids: list) -> list[str | None]:
    """Ids as the release should have written them: text, None where there is none (a number becomes its text)."""
    if set(map(type, ids)) <= {str, NONE}:
        return ids
    return [None if i is None else str(i) for i in ids]


class RecordTally:
    """The span faults of one record, reported once per kind with their count and where they were met."""

    def __init__(self, report: RecordReporter):
        self.report = report
        self.counts: dict[str, dict[str, int]] = {}

    def add(self, kind: str, where: str, count: int = 1) -> None:
        by_place = self.counts.setdefault(kind, {})
        by_place[where] = by_place.get(where, 0) + count

    def flush(self) -> None:
        for kind, by_place in self.counts.items():
            total = sum(by_place.values())
            places = ", ".join(f"{where}: {count}" for where, count in by_place.items())
            self.report(kind, f"{total} ({places})")
        self.counts = {}


def _attributes(span: dict) -> dict | None:
    attributes = span.get("attributes")
    return attributes if type(attributes) is dict else None


START, END = itemgetter("start"), itemgetter("end")
START_END = itemgetter(0, 1)
INT = {int}


def _well_formed(value: list, length: int, attributes: bool) -> tuple[list[Span], int] | None:
    """The spans sorted and without repeats, and the number of repeats, when every span is an object with integer
    offsets within the text (the common case, checked at C speed); None otherwise (the careful path sorts out and
    counts what is wrong). Without ``attributes`` the spans carry None (kinds whose attributes nobody reads)."""
    try:
        starts, ends = list(map(START, value)), list(map(END, value))
    except (KeyError, TypeError):  # a span that is not an object, or lacks an offset
        return None
    if not (set(map(type, starts)) <= INT and set(map(type, ends)) <= INT):
        return None
    if min(starts) < 0 or max(ends) > length or not all(map(lt, starts, ends)):
        return None
    if attributes:
        found = list(map(dict.get, value, repeat("attributes")))
        if not set(map(type, found)) <= {dict, NONE}:
            return None
    else:
        found = [None] * len(value)
    if all(map(lt, starts, islice(starts, 1, None))):  # starts rising: sorted, and no span twice
        return list(zip(starts, ends, found)), 0
    keys = list(zip(starts, ends))
    last = dict(zip(keys, found))
    if len(last) == len(keys):
        spans = list(zip(starts, ends, found))
        spans.sort(key=START_END)
        return spans, 0
    first = dict(zip(reversed(keys), reversed(found)))  # of repeats, the first (the one with attributes if any)
    spans = [(a, b, first[a, b] if first[a, b] is not None else last[a, b]) for a, b in sorted(last)]
    return spans, len(keys) - len(last)


def parse_spans(
    value, name: str, length: int, tally: RecordTally, expected: bool = False, attributes: bool = True
) -> list[Span]:
    """The distinct valid spans of one annotation kind, sorted by (start, end)."""
    if value is None:
        if expected:
            tally.add("annotation_null", name)
        return []
    if type(value) is str:
        try:
            value = orjson.loads(value)
        except orjson.JSONDecodeError:
            tally.add("annotation_invalid_json", name)
            return []
    if type(value) is not list:
        tally.add("annotation_bad_type", name)
        return []
    if not value:
        return []
    clean = _well_formed(value, length, attributes)
    if clean is not None:
        if clean[1]:
            tally.add("repeated_spans", name, clean[1])
        return clean[0]
    kept: dict[tuple[int, int], dict | None] = {}
    bad = repeats = 0
    for span in value:
        if type(span) is not dict:
            bad += 1
            continue
        start, end = span.get("start"), span.get("end")
        if type(start) is not int or type(end) is not int or not 0 <= start < end <= length:
            if type(start) is str and type(end) is str and start.isdigit() and end.isdigit():
                start, end = int(start), int(end)  # offsets written as text: read for what they say
                if 0 <= start < end <= length:
                    tally.add("span_bad_type", name)
                    span = {**span, "start": start, "end": end}
                else:
                    bad += 1
                    continue
            else:
                bad += 1
                continue
        key = (start, end)
        if key in kept:
            repeats += 1
            if kept[key] is None:
                kept[key] = _attributes(span)
            continue
        kept[key] = _attributes(span)
    if bad:
        tally.add("span_out_of_range", name, bad)
    if repeats:
        tally.add("repeated_spans", name, repeats)
    return [(start, end, attributes) for (start, end), attributes in sorted(kept.items())]


def without_overlaps(spans: list[Span], name: str, tally: RecordTally) -> list[Span]:
    """Sorted spans with every span that starts inside the one kept before it left out (counted)."""
    if all(map(le, map(itemgetter(1), spans), map(itemgetter(0), islice(spans, 1, None)))):
        return spans  # each ends before the next starts (the common case)
    kept, last_end, dropped = [], -1, 0
    for span in spans:
        if span[0] < last_end:
            dropped += 1
            continue
        kept.append(span)
        last_end = span[1]
    if dropped:
        tally.add("span_overlap", name, dropped)
    return kept
