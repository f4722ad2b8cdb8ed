"""The lake tables of one S2ORC shard: its papers, the candidate filter's two outputs, and its paragraphs.

What the shard assets run (and ``benchmarks/ingest.py`` measures): each streams batch by batch into one
atomically published partition, so memory stays bounded whatever the shard's size.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from citeworth_assets.lib import filters, lake
from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.read_issues import IssueLog
from citeworth_assets.lib.s2orc.candidate_filter import REASONS, rejection_schema, split_candidates
from citeworth_assets.lib.s2orc.records import paper_batches, paragraph_batches
from citeworth_assets.lib.s2orc.schema import ShardSource, paper_schema, paragraph_schema
from citeworth_assets.lib.s2orc.values import MAX_PARAGRAPH_CHARS

pa = lazy_module("pyarrow")
pc = lazy_module("pyarrow.compute")

FILTER_BATCH_ROWS = 5_000
ROW_GROUP_ROWS = 5_000  # small reading batches are written together, in row groups of at least this many rows


def _row_groups(tables: Iterable[pa.Table | pa.RecordBatch]) -> Iterator[pa.Table]:
    pending, rows = [], 0
    for table in tables:
        pending.append(pa.Table.from_batches([table]) if isinstance(table, pa.RecordBatch) else table)
        rows += table.num_rows
        if rows >= ROW_GROUP_ROWS:
            yield pa.concat_tables(pending)
            pending, rows = [], 0
    if pending:
        yield pa.concat_tables(pending)


def write_papers(lake_root: Path, source: ShardSource, log: IssueLog) -> int:
    """Write ``s2orc_papers`` for the shard of a metadata file; returns the number of papers."""
    with lake.PartitionWriter(lake_root, "s2orc_papers", paper_schema(), source.shard) as out:
        for table in _row_groups(paper_batches(source, log)):
            out.write_table(table)
    return out.rows_written


@dataclass
class CandidateSplit:
    papers: int
    candidates: int
    rejections: int
    by_criterion: dict[str, int]  # the criteria that dropped any paper


def write_candidates(lake_root: Path, key: str, step: str = "s2orc_candidate_filter") -> CandidateSplit:
    """Split the shard's ``s2orc_papers`` into ``s2orc_candidate_papers`` and ``s2orc_paper_rejections``, tallied
    (``filter_tallies``) under ``step``."""
    kept, dropped = ("s2orc_candidate_papers", paper_schema()), ("s2orc_paper_rejections", rejection_schema())
    papers = 0
    with filters.run(lake_root, step, key, [REASONS], kept, dropped) as run:
        for batch in lake.iter_partition_batches(lake_root, "s2orc_papers", key, batch_size=FILTER_BATCH_ROWS):
            papers += batch.num_rows
            accepted, rejected = split_candidates(batch)
            run.keep_table(accepted)
            run.drop_table(rejected, "failed_criterion")
    return CandidateSplit(papers, run.kept.rows_written, run.dropped.rows_written, run.tally.by_reason)


def candidate_ids(lake_root: Path, key: str) -> set[str]:
    ids: set[str] = set()
    for batch in lake.iter_partition_batches(lake_root, "s2orc_candidate_papers", key, ["paper_id"]):
        ids.update(batch.column("paper_id").to_pylist())
    return ids


@dataclass
class ParagraphsWritten:
    rows: int
    papers: set[str]  # the papers with at least one paragraph


def write_paragraphs(
    lake_root: Path,
    source: ShardSource,
    log: IssueLog,
    paper_ids: set[str] | None = None,
    max_paragraph_chars: int = MAX_PARAGRAPH_CHARS,
) -> ParagraphsWritten:
    """Write ``s2orc_paragraphs`` for the shard of a pdf_parses file, for ``paper_ids`` if given."""
    tables = _row_groups(paragraph_batches(source, log, paper_ids, max_paragraph_chars))
    return write_paragraph_tables(lake_root, source.shard, tables)


def write_paragraph_tables(lake_root: Path, shard: str, tables: Iterable[pa.Table]) -> ParagraphsWritten:
    """Write a shard's ``s2orc_paragraphs`` from its paragraph tables (either release layout), noting its papers."""
    papers: set[str] = set()
    with lake.PartitionWriter(lake_root, "s2orc_paragraphs", paragraph_schema(), shard) as out:
        for table in tables:
            papers.update(pc.unique(table.column("paper_id")).to_pylist())
            out.write_table(table)
    return ParagraphsWritten(out.rows_written, papers)
