"""S2ORC 20200705v1 records: streaming readers of ``metadata`` and ``pdf_parses`` shards, in batches.

The readers turn raw records into typed rows with provenance. They repair what can be repaired and
report it (a ``null`` where a list belongs becomes an empty list; a citation span whose offsets fall
outside its paragraph is dropped and counted on the paragraph), and skip only what cannot be read at
all (a line that is not JSON, a record without ``paper_id``). Nothing is silently lost: every repair
and every skip is a :class:`~citeworth_assets.lib.jsonl.ReadIssue`. The rules are in :mod:`.values`;
records are read in batches of bounded size and typed column by column (:mod:`.paper_columns`,
:mod:`.paragraph_columns`), so that a shard streams at close to the cost of decompressing and parsing it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from itertools import groupby
from typing import TypeVar

from citeworth_assets.lib import collector
from citeworth_assets.lib.jsonl import iter_json_records
from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.papers import PaperInput
from citeworth_assets.lib.read_issues import IssueLog, ReadIssue
from citeworth_assets.lib.s2orc.batch import OrderedIssues, SourceRecords
from citeworth_assets.lib.s2orc.paper_columns import paper_batch
from citeworth_assets.lib.s2orc.paragraph_columns import paragraph_table
from citeworth_assets.lib.s2orc.schema import (
    ShardSource,
    author_type,
    citation_span_type,
    paper_schema,
    paragraph_schema,
    provenance_fields,
    reference_span_type,
)
from citeworth_assets.lib.s2orc.values import (
    MAX_PARAGRAPH_CHARS,
    FirstOccurrences,
    RecordReporter,
    metadata_row,
    paragraph_rows,
)

pa = lazy_module("pyarrow")

__all__ = [  # the schemas and per-record rules are imported from here by the other domains
    "author_type",
    "citation_span_type",
    "MAX_PARAGRAPH_CHARS",
    "paper_schema",
    "paragraph_schema",
    "provenance_fields",
    "reference_span_type",
    "RecordReporter",
    "ShardSource",
    "metadata_row",
    "paper_batches",
    "papers_from_paragraph_rows",
    "paragraph_batches",
    "paragraph_rows",
    "read_metadata",
    "read_paragraphs",
    "record_batches",
]

LEADING_PAPER_ID = re.compile(rb'^\s*\{\s*"paper_id"\s*:\s*"([^"\\]*)"')
BATCH_RECORDS = 5_000
BATCH_BYTES = 512 << 10  # of JSON lines held at once: bounds memory whatever the record size; small stays in cache
T = TypeVar("T")


def record_batches(
    source: ShardSource,
    log: IssueLog,
    paper_ids: set[str] | None = None,
    max_records: int = BATCH_RECORDS,
    max_bytes: int | None = None,
) -> Iterator[SourceRecords]:
    """Batches of the records with a usable paper_id (of ``paper_ids`` if given). A paper_id seen before in the
    file is reported and skipped, so that the first occurrence wins (across shards, ``s2orc_duplicate_papers``
    reports them). A batch's issues reach ``log`` in reading order once the consumer asks for the next one."""
    kept = FirstOccurrences("paper_id", paper_ids)
    issues = OrderedIssues()
    max_bytes = max_bytes or BATCH_BYTES

    def wanted(line: bytes) -> bool:
        # Records start with their paper_id in the release: skip others without parsing them.
        match = LEADING_PAPER_ID.match(line)
        if match is None:
            return True
        try:
            return match.group(1).decode() in paper_ids
        except UnicodeDecodeError:
            return True  # let the JSON parser report the line as invalid UTF-8

    batch, held = SourceRecords(source, issues), 0
    # repair: a lone surrogate escape (or invalid UTF-8) costs one counted issue, not the paper; only lines that
    # fail to parse pay for it
    lines = iter_json_records(source.path, issues, None if paper_ids is None else wanted, repair=True)
    for number, offset, size, record in lines:
        paper_id = record.get("paper_id")
        if paper_id in (None, "") or (type(paper_id) is not str and type(paper_id) is not int):
            report = RecordReporter(issues, source.path, number, offset, None)
            if paper_id in (None, ""):
                report("missing_field", "record has no paper_id; skipped")
            else:
                report("bad_type", f"paper_id holds a {type(paper_id).__name__}, expected a string; skipped")
            continue
        paper_id = str(paper_id)
        if "\ufffd" in paper_id:  # a repaired id names no paper: the record is not filed under it
            problem = "paper_id is not valid UTF-8 (or holds a lone surrogate): record skipped"
            issues.replace_or_add(ReadIssue(str(source.path), number, offset, "invalid_utf8", problem))
            continue
        if not kept.keep(issues, source.path, number, offset, paper_id):
            continue
        batch.lines.append(number)
        batch.offsets.append(offset)
        batch.paper_ids.append(paper_id)
        batch.records.append(record)
        held += size
        if len(batch) >= max_records or held >= max_bytes:
            yield batch
            issues.flush(log)
            batch, held = SourceRecords(source, issues), 0
    if len(batch):
        yield batch
    issues.flush(log)


def _typed(batches: Iterator[SourceRecords], build: Callable[[SourceRecords], T]) -> Iterator[T]:
    """``build`` of each batch, reading and typing with the collector paused and the parsed records let go before
    the result is handed on (see :mod:`~citeworth_assets.lib.collector`)."""
    while True:
        with collector.paused():
            batch = next(batches, None)
            if batch is None:
                return
            built = build(batch)
            batch.release()
        yield built


def paper_batches(source: ShardSource, log: IssueLog) -> Iterator[pa.RecordBatch]:
    """Typed ``s2orc_papers`` rows with provenance of a metadata shard, batch by batch."""
    return _typed(record_batches(source, log), paper_batch)


def paragraph_batches(
    source: ShardSource,
    log: IssueLog,
    paper_ids: set[str] | None = None,
    max_paragraph_chars: int = MAX_PARAGRAPH_CHARS,
) -> Iterator[pa.Table]:
    """``s2orc_paragraphs`` rows with provenance of a pdf_parses shard (for ``paper_ids`` if given), batch by batch.

    A paragraph longer than ``max_paragraph_chars`` is dropped and reported (``paragraph_too_long``): it is a
    parse error, and every later step would pay for it.
    """
    return _typed(record_batches(source, log, paper_ids), lambda batch: paragraph_table(batch, max_paragraph_chars))


def read_metadata(source: ShardSource, log: IssueLog) -> Iterator[dict]:
    """Stream typed paper rows with provenance from a metadata shard, as dicts."""
    for batch in paper_batches(source, log):
        yield from batch.to_pylist()


def read_paragraphs(
    source: ShardSource,
    log: IssueLog,
    paper_ids: set[str] | None = None,
    max_paragraph_chars: int = MAX_PARAGRAPH_CHARS,
) -> Iterator[dict]:
    """Stream body-text paragraph rows with provenance from a pdf_parses shard, for ``paper_ids`` if given."""
    for table in paragraph_batches(source, log, paper_ids, max_paragraph_chars):
        yield from table.to_pylist()


def papers_from_paragraph_rows(rows: Iterable[dict], fields: dict[str, list | None]) -> Iterator[PaperInput]:
    """Group ``s2orc_paragraphs`` rows (in file order) into papers, with their fields of study and provenance."""
    for paper_id, group in groupby(rows, key=lambda row: row["paper_id"]):
        paragraphs = list(group)
        first = paragraphs[0]
        provenance = {name: first[name] for name, _ in provenance_fields()}
        yield PaperInput(paper_id, paragraphs, fields.get(paper_id), provenance)
