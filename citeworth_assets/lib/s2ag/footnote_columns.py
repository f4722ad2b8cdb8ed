"""Footnote lines (:func:`~.paragraphs.footnote_lines`) of a batch of records at once, on offset columns: the
annotated blocks merged into stretches with one sort and a running maximum, each citation's stretch found with one
``searchsorted``; only the citations between blocks are looked at one by one, for their line."""

from __future__ import annotations

from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.s2ag.paragraphs import COVERING, footnote_line
from citeworth_assets.lib.s2ag.span_columns import LOW, SHIFT, SpanColumns, span_columns

np = lazy_module("numpy")


def _stretches(record: np.ndarray, start: np.ndarray, end: np.ndarray) -> tuple[np.ndarray, ...]:
    """(record, start, end) of the disjoint stretches the blocks make (touching blocks are one), sorted."""
    order = np.lexsort((end, (record << SHIFT) | start))
    record, start, end = record[order], start[order], end[order]
    reach = np.maximum.accumulate((record << SHIFT) | end)  # the record leads: the maximum starts anew with it
    new = np.ones(len(order), bool)
    new[1:] = (record[1:] != record[:-1]) | (start[1:] > (reach[:-1] & LOW))
    first = np.flatnonzero(new)
    last = np.append(first, len(order))[1:] - 1
    return record[first], start[first], reach[last] & LOW


def footnote_columns(
    texts: list, records: list[int], blocks: list[SpanColumns], cites: tuple[np.ndarray, ...], slow: np.ndarray
) -> dict[int, list[tuple[int, int]]]:
    """Each record's footnote lines (start, end), sorted, from its citations outside paragraphs (``cites``: record,
    start, end) and its ``blocks`` (paragraphs, headers, bibliography entries in the body); the kinds that cover
    text (figures, tables, ...) are read here. A record whose covering kinds are at fault is marked ``slow``."""
    picked = np.array(records, np.int64)
    lengths = np.fromiter((len(texts[r].body) for r in records), np.int64, len(records))
    local_slow = np.zeros(len(records), bool)
    parts = [(b.record, b.start, b.end) for b in blocks]
    for kind in COVERING:
        values = [texts[r].body_annotations.get(texts[r].keys[kind]) for r in records]
        found = span_columns(values, lengths, local_slow)
        parts.append((picked[found.record], found.start, found.end))
    slow[picked[local_slow]] = True
    record, start, end = (np.concatenate([p[k] for p in parts]) for k in range(3))
    wanted = np.zeros(len(slow), bool)
    wanted[picked] = True
    keep = wanted[record]
    stretch_record, stretch_start, stretch_end = _stretches(record[keep], start[keep], end[keep])
    if not len(stretch_record):  # no block at all: a record with footnotes has paragraphs; kept for safety
        stretch_record = stretch_start = stretch_end = np.full(1, -1, np.int64)
    cite_record, cite_start, cite_end = cites
    i = np.searchsorted((stretch_record << SHIFT) | stretch_start, (cite_record << SHIFT) | cite_start, "right") - 1
    last = len(stretch_record) - 1
    here = (i >= 0) & (stretch_record[np.clip(i, 0, last)] == cite_record)
    before = np.where(here, stretch_end[np.clip(i, 0, last)], 0)
    body_length = np.zeros(len(slow), np.int64)
    body_length[picked] = lengths
    after_here = (i + 1 <= last) & (stretch_record[np.clip(i + 1, 0, last)] == cite_record)
    after = np.where(after_here, stretch_start[np.clip(i + 1, 0, last)], body_length[cite_record])
    between = (before <= cite_start) & (after >= cite_end)  # not inside a block (a caption, a table, ...)
    lines: dict[int, dict] = {r: {} for r in records}
    for r, s, e, b, a in zip(*(x[between].tolist() for x in (cite_record, cite_start, cite_end, before, after))):
        lines[r][footnote_line(texts[r].body, s, e, b, a)] = None
    return {r: sorted(found) for r, found in lines.items()}
