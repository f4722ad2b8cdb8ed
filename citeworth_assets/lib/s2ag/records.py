"""Streaming an S2AG full-text file into ``s2orc_paragraphs`` rows and the full-text part of ``s2orc_papers``.

Records are read line by line (gzip or plain, damage reported as for every dump: :mod:`citeworth_assets.lib.jsonl`,
with ``repair`` so that a lone surrogate or a bad byte costs its characters, not the paper), a record without a
usable ``corpusid`` or one seen before in the file is reported and skipped, and rows go out in batches, so memory is
bounded by the batch whatever the file's size.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from itertools import chain, repeat
from pathlib import Path

from citeworth_assets.lib import collector
from citeworth_assets.lib.jsonl import iter_json_records
from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.read_issues import IssueLog
from citeworth_assets.lib.s2ag.annotations import RecordTally
from citeworth_assets.lib.s2ag.batch_paragraphs import batch_paragraphs, list_column
from citeworth_assets.lib.s2ag.fulltext import FullText, read_full_text
from citeworth_assets.lib.s2orc.batch import OrderedIssues
from citeworth_assets.lib.s2orc.schema import ShardSource, citation_span_type, paragraph_schema, reference_span_type
from citeworth_assets.lib.s2orc.shard_tables import ParagraphsWritten, write_paragraph_tables
from citeworth_assets.lib.s2orc.values import MAX_PARAGRAPH_CHARS, FirstOccurrences, RecordReporter

np = lazy_module("numpy")
pa = lazy_module("pyarrow")
pc = lazy_module("pyarrow.compute")

LEADING_CORPUS_ID = re.compile(rb'^\s*\{\s*"corpusid"\s*:\s*"?(\d+)')
BATCH_BYTES = 8 << 20  # of JSON held at once (a full text is 10-100 KB): each batch costs a few ms of numpy and Arrow
BATCH_RECORDS = 500


# The full-text part of a paper row: what the join with the staged ``papers`` and ``abstracts`` starts from.
@cache
def full_text_schema() -> pa.Schema:
    return pa.schema(
        [
            ("paper_id", pa.string()),
            ("corpusid", pa.int64()),
            ("title", pa.string()),
            ("abstract", pa.string()),
            *[(f"ft_{name}", pa.string()) for name in ("arxiv", "acl", "pubmed", "pubmedcentral", "doi", "mag")],
            ("has_pdf_parsed_abstract", pa.bool_()),
            ("has_pdf_parsed_body_text", pa.bool_()),
            ("has_pdf_parsed_bib_entries", pa.bool_()),
            ("has_pdf_parsed_ref_entries", pa.bool_()),
            ("release", pa.string()),
            ("shard", pa.string()),
            ("source_file", pa.string()),
            ("line", pa.int64()),
            ("byte_offset", pa.int64()),
        ]
    )


@dataclass
class Record:
    line: int
    offset: int
    paper_id: str
    record: dict


def _corpus_id(record: dict) -> str | None:
    value = record.get("corpusid", record.get("corpusId"))
    if type(value) is int and value >= 0:
        return str(value)
    if type(value) is str and value.strip().isdigit():
        return str(int(value))
    return None


def record_batches(
    source: ShardSource, log: IssueLog, paper_ids: set[str] | None = None
) -> Iterator[tuple[list[Record], OrderedIssues]]:
    """Batches of records with a usable corpus id (of ``paper_ids`` if given), first occurrence in the file only."""
    issues = OrderedIssues()
    kept = FirstOccurrences("corpusid", paper_ids)

    def wanted(line: bytes) -> bool:
        match = LEADING_CORPUS_ID.match(line)
        return match is None or str(int(match.group(1))) in paper_ids

    batch, held = [], 0
    records = iter_json_records(
        source.path, issues, None if paper_ids is None else wanted, repair=True, long_lines=True
    )
    for number, offset, size, record in records:
        paper_id = _corpus_id(record)
        if paper_id is None:
            what = "no corpusid" if record.get("corpusid") is None else f"corpusid {str(record['corpusid'])[:40]!r}"
            RecordReporter(issues, source.path, number, offset, None)("missing_field", f"record has {what}; skipped")
            continue
        if not kept.keep(issues, source.path, number, offset, paper_id):
            continue
        batch.append(Record(number, offset, paper_id, record))
        held += size
        if len(batch) >= BATCH_RECORDS or held >= BATCH_BYTES:
            yield batch, issues
            issues.flush(log)
            batch, held = [], 0
    if batch:
        yield batch, issues
    issues.flush(log)


def full_texts(
    source: ShardSource,
    log: IssueLog,
    paper_ids: set[str] | None = None,
    max_chars: int = MAX_PARAGRAPH_CHARS,
    paragraphs: bool = True,
) -> Iterator[list[tuple[Record, FullText]]]:
    """The paper model of every record, batch by batch; each record's faults reported under its line."""
    for batch, issues in record_batches(source, log, paper_ids):
        with collector.paused():
            read = []
            for item in batch:
                tally = RecordTally(RecordReporter(issues, source.path, item.line, item.offset, item.paper_id))
                read.append((item, read_full_text(item.record, item.paper_id, tally, max_chars, paragraphs)))
                tally.flush()
                item.record = None  # let go of the parsed JSON once read
        yield read


def _provenance(source: ShardSource, item: Record) -> dict:
    return source.provenance(item.line, item.offset)


def full_text_batches(source: ShardSource, log: IssueLog) -> Iterator[pa.Table]:
    """The full-text part of each paper (:data:`full_text_schema()`), batch by batch."""
    for read in full_texts(source, log, paragraphs=False):
        rows = []
        for item, paper in read:
            ids = paper.external_ids
            rows.append(
                {
                    "paper_id": paper.paper_id,
                    "corpusid": int(paper.paper_id),
                    "title": paper.title,
                    "abstract": paper.abstract,
                    **{f"ft_{name}": ids.get(name) for name in ("arxiv", "acl", "pubmed", "pubmedcentral", "doi")},
                    "ft_mag": ids.get("mag"),
                    "has_pdf_parsed_abstract": paper.has_abstract,
                    "has_pdf_parsed_body_text": paper.has_body_text,
                    "has_pdf_parsed_bib_entries": paper.has_bib_entries,
                    "has_pdf_parsed_ref_entries": paper.has_ref_entries,
                    **_provenance(source, item),
                }
            )
        yield pa.Table.from_pylist(rows, schema=full_text_schema())


def paragraph_table(source: ShardSource, read: list[tuple[Record, FullText]]) -> pa.Table:
    """The ``s2orc_paragraphs`` rows of a batch of papers with provenance, column by column."""
    papers = [paper.paragraphs for _, paper in read if paper.paragraphs is not None and len(paper.paragraphs)]
    lines = {id(paper.paragraphs): (item.line, item.offset) for item, paper in read}

    def flat(name: str) -> list:
        return list(chain.from_iterable(getattr(p, name) for p in papers))

    per_paper = np.fromiter(map(len, papers), np.int64, len(papers))
    rows = int(per_paper.sum())
    where = [lines[id(p)] for p in papers]
    string, int32 = pa.string(), pa.int32()
    cite_children = [
        pa.array(flat("cite_start"), int32),
        pa.array(flat("cite_end"), int32),
        pa.array(flat("cite_text"), string),
        pa.array(flat("cite_ref"), string),
        pa.array(flat("cite_linked"), string),
    ]
    ref_children = [
        pa.array(flat(name), t)
        for name, t in (("ref_start", int32), ("ref_end", int32), ("ref_text", string), ("ref_ref", string))
    ]
    columns = {
        "paper_id": pa.array(list(chain.from_iterable(repeat(p.paper_id, len(p)) for p in papers)), string),
        "paragraph_index": pa.array(flat("index"), int32),
        "section": pa.array(flat("section"), string),
        "text": pa.array(flat("text"), string),
        "cite_spans": list_column(flat("cite_count"), cite_children, citation_span_type()),
        "ref_spans": list_column(flat("ref_count"), ref_children, reference_span_type()),
        "invalid_span_count": pa.array(flat("invalid"), int32),
        "release": pa.array([source.release] * rows, string),
        "shard": pa.array([source.shard] * rows, string),
        "source_file": pa.array([source.path.name] * rows, string),
        "line": pa.array(np.repeat(np.fromiter((w[0] for w in where), np.int64, len(where)), per_paper), pa.int64()),
        "byte_offset": pa.array(
            np.repeat(np.fromiter((w[1] for w in where), np.int64, len(where)), per_paper), pa.int64()
        ),
    }
    return pa.Table.from_arrays([columns[name] for name in paragraph_schema().names], schema=paragraph_schema())


def _batch_table(source: ShardSource, batch: list[Record], issues: OrderedIssues, max_chars: int) -> pa.Table:
    """A batch's ``s2orc_paragraphs`` rows: the fast records on columns, the others record by record, in order."""
    reporters = [RecordReporter(issues, source.path, i.line, i.offset, i.paper_id) for i in batch]
    fast = batch_paragraphs(source, batch, reporters, max_chars)
    read = []
    for r in fast.slow:  # the records with more to say, read one by one
        tally = RecordTally(reporters[r])
        read.append((batch[r], read_full_text(batch[r].record, batch[r].paper_id, tally, max_chars)))
        tally.flush()
    for item in batch:
        item.record = None  # let go of the parsed JSON once read
    if not read:
        return fast.table
    slow = paragraph_table(source, read)
    slow_records = [r for r, (_, paper) in zip(fast.slow, read) for _ in range(len(paper.paragraphs or ()))]
    order = np.argsort(np.concatenate((fast.row_records, np.array(slow_records, np.int64))), kind="stable")
    return pa.concat_tables([fast.table, slow]).take(order)


def paragraph_batches(
    source: ShardSource, log: IssueLog, paper_ids: set[str] | None = None, max_chars: int = MAX_PARAGRAPH_CHARS
) -> Iterator[pa.Table]:
    """``s2orc_paragraphs`` rows with provenance of a full-text file (for ``paper_ids`` if given), batch by batch.

    The collector is paused while a batch's lines are parsed as well as while they are read: the batch is held
    whole, so each pass of the collector would walk all of it (parsed JSON holds no cycle to find)."""
    batches = record_batches(source, log, paper_ids)
    while True:
        with collector.paused():
            found = next(batches, None)
            if found is None:
                return
            table = _batch_table(source, *found, max_chars)
        yield table


def write_paragraphs(
    lake_root: Path,
    source: ShardSource,
    log: IssueLog,
    paper_ids: set[str] | None = None,
    max_chars: int = MAX_PARAGRAPH_CHARS,
) -> ParagraphsWritten:
    """Write ``s2orc_paragraphs`` for an S2AG full-text file (for ``paper_ids`` if given), as the 2020 shards do."""
    return write_paragraph_tables(lake_root, source.shard, paragraph_batches(source, log, paper_ids, max_chars))
