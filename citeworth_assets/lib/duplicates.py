"""Papers found in more than one input of a source (S2ORC shards, unarXive dump files): the first occurrence by
release, input and line is kept, and every occurrence is listed with whether it is the kept one.

Each input is read on its own, and a reader already skips (and reports) a paper repeated within its file; a paper
repeated across inputs can only be seen once every input is in the lake, so the list is a table of its own, written
here for every source from its :class:`DuplicateTable`. Datasets that join across inputs take the kept row; the arXiv
context export leaves out the contexts of the occurrences not kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from citeworth_assets.lib import lake
from citeworth_assets.lib.lazy import lazy_module

pa = lazy_module("pyarrow")


@dataclass(frozen=True)
class DuplicateTable:
    """Where a source's papers are and where their duplicates go: ``unit`` is the column naming the input (the
    partition dimension), read from the partition folders when ``hive_partitioning`` (the rows do not carry it);
    ``source_id``, where a source's other tables name a paper otherwise than by ``paper_id``, is the SQL expression
    of that name over the papers' columns (its ``?`` bound to ``source_id_params``)."""

    papers: str
    table: str
    unit: str
    hive_partitioning: bool = False
    source_id: str | None = None
    source_id_params: tuple = ()

    @property
    def schema(self) -> pa.Schema:
        return pa.schema(
            [
                ("paper_id", pa.string()),
                ("release", pa.string()),
                (self.unit, pa.string()),
                ("source_file", pa.string()),
                ("line", pa.int64()),
                ("kept", pa.bool_()),
                *([("source_id", pa.string())] if self.source_id else []),
            ]
        )


def write_duplicate_papers(lake_root: Path, duplicates: DuplicateTable) -> int:
    """Write ``duplicates.table``: every occurrence of a paper found more than once, ordered by paper, release,
    input and line."""
    if not lake.has_data(lake_root, duplicates.papers):
        return lake.write_partition(lake_root, duplicates.table, duplicates.schema, [])
    order = f"release, {duplicates.unit}, line"
    hive = ", hive_partitioning = true" if duplicates.hive_partitioning else ""
    source_id = f", {duplicates.source_id} AS source_id" if duplicates.source_id else ""
    sql = f"""
        SELECT paper_id, release, {duplicates.unit}, source_file, line,
               row_number() OVER (PARTITION BY paper_id ORDER BY {order}) = 1 AS kept{source_id}
        FROM read_parquet(?{hive})
        QUALIFY count(*) OVER (PARTITION BY paper_id) > 1
        ORDER BY paper_id, {order}
    """
    params = [*duplicates.source_id_params, lake.table_glob(lake_root, duplicates.papers)]
    return lake.write_partition_from_query(lake_root, duplicates.table, sql, params)
