"""S2ORC metadata records to one Arrow batch of ``s2orc_papers`` rows, built column by column.

Each field is gathered over the whole batch and its Python types are checked at once
(``set(map(type, values))``); a column of well-formed values goes to Arrow as it is. Only the values of another
type (a number where a string belongs, a missing field, a ``null`` list) go through the per-record rules of
:mod:`.values`, which repair and report them exactly as a record-by-record reading does.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain, repeat
from operator import itemgetter

from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.s2orc.batch import NONE, SourceRecords, odd_positions
from citeworth_assets.lib.s2orc.schema import (
    FLAG_FIELDS,
    LIST_FIELDS,
    NULLABLE_LISTS,
    PDF_FLAG_FIELDS,
    STRING_FIELDS,
    author_type,
    paper_schema,
)
from citeworth_assets.lib.s2orc.values import (
    INT32_MAX,
    INT32_MIN,
    MISSING,
    author_list,
    flag_field,
    string_list,
    string_value,
    well_formed_author,
    year_value,
)

np = lazy_module("numpy")
pa = lazy_module("pyarrow")

STRINGS = {str, NONE}
AUTHOR_TEXT_PARTS = ("first", "last", "suffix")
COMMON_FIELD_NAMES = (*STRING_FIELDS, "authors", "year", *LIST_FIELDS, *FLAG_FIELDS)  # all but the PDF flags
COMMON_FIELDS = itemgetter(*COMMON_FIELD_NAMES)


def _gather(records: list[dict], name: str) -> list:
    return list(map(dict.get, records, repeat(name), repeat(MISSING)))


def _strings(batch: SourceRecords, values: Sequence, name: str) -> pa.Array:
    odd = odd_positions(values, STRINGS)
    if odd:
        values = list(values)
    for i in odd:
        values[i] = string_value(values[i], name, batch.reporter(i))
    return pa.array(values, pa.string())


def _string_lists(batch: SourceRecords, values: Sequence, name: str) -> pa.Array:
    nullable = name in NULLABLE_LISTS
    odd = odd_positions(values, {list, NONE} if nullable else {list})
    lists = filter(None, values) if not odd else (v for v in values if type(v) is list)
    if not set(map(type, chain.from_iterable(lists))) <= {str}:
        odd = [i for i, v in enumerate(values) if type(v) is not list or not all(type(x) is str for x in v)]
    if odd:
        values = list(values)
    for i in odd:
        values[i] = string_list(values[i], name, batch.reporter(i), nullable)
    return pa.array(values, pa.list_(pa.string()))


def _years(batch: SourceRecords, values: Sequence) -> pa.Array:
    values = list(values)
    for i in odd_positions(values, {int, NONE}):
        values[i] = year_value(values[i], batch.reporter(i))
    try:
        return pa.array(values, pa.int32())
    except (pa.ArrowInvalid, OverflowError):  # an integer outside int32: the rule reports it and nulls it
        for i, value in enumerate(values):
            if value is not None and not INT32_MIN <= value <= INT32_MAX:
                values[i] = year_value(value, batch.reporter(i))
        return pa.array(values, pa.int32())


def _offsets(lists: list) -> pa.Array:
    lengths = np.fromiter(map(len, lists), np.int32, len(lists))
    return pa.array(np.concatenate(([0], np.cumsum(lengths, dtype=np.int32))), pa.int32())


def _well_formed_authors(values: Sequence) -> pa.Array | None:
    """The authors column built from its parts when every author is well formed, else None."""
    if not set(map(type, values)) <= {list}:
        return None
    authors = list(chain.from_iterable(values))
    if not set(map(type, authors)) <= {dict}:
        return None
    parts = {name: list(map(dict.get, authors, repeat(name))) for name in ("first", "middle", "last", "suffix")}
    middles = parts["middle"]
    if not (
        all(set(map(type, parts[name])) <= {str} for name in AUTHOR_TEXT_PARTS)
        and set(map(type, middles)) <= {list}
        and set(map(type, chain.from_iterable(middles))) <= {str}
    ):
        return None
    middle = pa.ListArray.from_arrays(_offsets(middles), pa.array(list(chain.from_iterable(middles)), pa.string()))
    children = [pa.array(parts["first"], pa.string()), middle]
    children += [pa.array(parts[name], pa.string()) for name in AUTHOR_TEXT_PARTS[1:]]
    return pa.ListArray.from_arrays(_offsets(values), pa.StructArray.from_arrays(children, fields=list(author_type())))


def _authors(batch: SourceRecords, values: Sequence) -> pa.Array:
    built = _well_formed_authors(values)
    if built is not None:
        return built
    values = list(values)
    for i, value in enumerate(values):
        if type(value) is not list or not all(well_formed_author(author) for author in value):
            values[i] = author_list(value, batch.reporter(i))
    return pa.array(values, pa.list_(author_type()))  # Arrow takes the four fields by name


def _flags(batch: SourceRecords, values: Sequence, name: str, parse: list | None = None) -> list:
    """A flag column as Python values (``has_pdf_parse`` is needed again for the PDF flags)."""
    kinds = set(map(type, values))
    if kinds <= {bool}:
        return values
    values = [False if value is None else value for value in values]  # null is false, as the rule says
    for i in odd_positions(values, {bool}):
        if values[i] is MISSING and parse is not None and not parse[i]:
            values[i] = False  # no PDF parse: the PDF flags are absent in the release, and nothing is reported
        else:
            expected = True if parse is None else bool(parse[i])
            values[i] = flag_field(values[i], name, batch.reporter(i), parse_expected=expected)
    return values


def _gather_all(records: list[dict]) -> list[Sequence]:
    """The columns of the fields every release record has, in one pass over the records; field by field (a
    missing one as ``MISSING``) when a record lacks one."""
    try:
        columns = list(zip(*map(COMMON_FIELDS, records)))
    except KeyError:
        return [_gather(records, name) for name in COMMON_FIELD_NAMES]
    return columns or [() for _ in COMMON_FIELD_NAMES]


def paper_batch(batch: SourceRecords) -> pa.RecordBatch:
    """Typed ``s2orc_papers`` rows with provenance of a batch of metadata records (issues go to ``batch``)."""
    records, positions = batch.records, iter(range(len(paper_schema())))
    gathered = dict(zip(COMMON_FIELD_NAMES, _gather_all(records)))
    columns = {"paper_id": pa.array(batch.paper_ids, pa.string())}
    for name in STRING_FIELDS:
        columns[name] = _strings(batch.at_field(next(positions)), gathered[name], name)
    columns["authors"] = _authors(batch.at_field(next(positions)), gathered["authors"])
    columns["year"] = _years(batch.at_field(next(positions)), gathered["year"])
    for name in LIST_FIELDS:
        columns[name] = _string_lists(batch.at_field(next(positions)), gathered[name], name)
    flags = {}
    for name in FLAG_FIELDS:
        flags[name] = _flags(batch.at_field(next(positions)), gathered[name], name)
    for name in PDF_FLAG_FIELDS:
        flags[name] = _flags(batch.at_field(next(positions)), _gather(records, name), name, flags["has_pdf_parse"])
    columns.update((name, pa.array(values, pa.bool_())) for name, values in flags.items())
    columns.update(batch.provenance())
    return pa.RecordBatch.from_arrays([columns[name] for name in paper_schema().names], schema=paper_schema())
