"""arXiv papers found in several unarXive dump files (or twice in one): the first by release, dump file and line is
kept, as with S2ORC shards.

Each dump file is read on its own, so a paper repeated across files can only be seen once every file is in the
lake. Every occurrence is listed with whether it is the kept one; the context export writes the contexts of the
kept occurrence only, so a paper listed in seven files is not exported seven times.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from citeworth_assets.lib import lake
from citeworth_assets.lib.duckdb_limits import bounded
from citeworth_assets.lib.identifiers import normalise_arxiv_id

DUPLICATE_SCHEMA = pa.schema(
    [
        ("paper_id", pa.string()),
        ("release", pa.string()),
        ("dump_file", pa.string()),
        ("source_file", pa.string()),
        ("line", pa.int64()),
        ("kept", pa.bool_()),
    ]
)
FIRST_OCCURRENCE = "row_number() OVER (PARTITION BY paper_id ORDER BY release, dump_file, line) = 1"


def _papers_sql(lake_root: Path) -> str:
    glob = lake.table_glob(lake_root, "arxiv_papers").replace("'", "''")
    return f"read_parquet('{glob}', hive_partitioning = true)"


def write_duplicate_papers(lake_root: Path) -> int:
    """Write ``arxiv_duplicate_papers``: every occurrence of a paper found more than once."""
    if not lake.has_data(lake_root, "arxiv_papers"):
        return lake.write_partition(lake_root, "arxiv_duplicate_papers", DUPLICATE_SCHEMA, [])
    sql = f"""
        SELECT paper_id, release, dump_file, source_file, line, {FIRST_OCCURRENCE} AS kept
        FROM {_papers_sql(lake_root)}
        QUALIFY count(*) OVER (PARTITION BY paper_id) > 1
        ORDER BY paper_id, release, dump_file, line
    """
    return lake.write_partition_from_query(lake_root, "arxiv_duplicate_papers", sql, [])


def dropped_occurrences(lake_root: Path) -> set[tuple[str, str]]:
    """(dump file key, normalised paper id) of every occurrence that is not kept (a repeat within the file that
    holds the kept one is left to that file)."""
    if not lake.has_data(lake_root, "arxiv_duplicate_papers"):
        return set()
    glob = lake.table_glob(lake_root, "arxiv_duplicate_papers").replace("'", "''")
    with bounded() as connection:
        rows = connection.execute(
            f"""SELECT dump_file, paper_id FROM read_parquet('{glob}') GROUP BY ALL HAVING NOT bool_or(kept)"""
        ).fetchall()
    return {(key, paper) for key, paper in rows}


def is_dropped(dropped: set[tuple[str, str]], key: str, citing_paper_id: str | None) -> bool:
    """Whether a context of ``citing_paper_id`` (as the CSV names it) read from dump file ``key`` is a repeat."""
    if not dropped or not citing_paper_id:
        return False
    return (key, normalise_arxiv_id(citing_paper_id) or citing_paper_id) in dropped
