"""arXiv papers found in several unarXive dump files: the first by release, dump file and line is
kept, as with S2ORC shards.

Each dump file is read on its own, so a paper repeated across files can only be seen once every file is in the
lake. Every occurrence is listed with whether it is the kept one, and with the id its dump file's contexts and
references name it by (``source_id``: unarXive 2020's file-name form, ``hep-th9901001``). The context export and
the warehouse views (``arxiv.papers``, ``arxiv.references``, ``arxiv.contexts``, ...) leave out the rows of an
occurrence that is not kept, by the same (dump file, source id) pairs, so a paper listed in seven files counts once.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from citeworth_assets.lib import lake
from citeworth_assets.lib.arxiv.dump_files import UNARXIVE_2020
from citeworth_assets.lib.duckdb_limits import bounded

DUPLICATE_SCHEMA = pa.schema(
    [
        ("paper_id", pa.string()),
        ("release", pa.string()),
        ("dump_file", pa.string()),
        ("source_file", pa.string()),
        ("line", pa.int64()),
        ("kept", pa.bool_()),
        ("source_id", pa.string()),  # the paper's id as the file's references and contexts write citing_paper_id
    ]
)
FIRST_OCCURRENCE = "row_number() OVER (PARTITION BY paper_id ORDER BY release, dump_file, line) = 1"
# unarXive 2020 names a citing paper as its file does (stored_papers.refs_db_id); later releases by the paper id
SOURCE_ID = (
    "CASE WHEN release = ? THEN regexp_replace(regexp_extract(coalesce(member, source_file), '[^/]*$'), "
    "'\\.txt$', '') ELSE paper_id END"
)


def _papers_sql(lake_root: Path) -> str:
    glob = lake.table_glob(lake_root, "arxiv_papers").replace("'", "''")
    return f"read_parquet('{glob}', hive_partitioning = true)"


def write_duplicate_papers(lake_root: Path) -> int:
    """Write ``arxiv_duplicate_papers``: every occurrence of a paper found more than once."""
    if not lake.has_data(lake_root, "arxiv_papers"):
        return lake.write_partition(lake_root, "arxiv_duplicate_papers", DUPLICATE_SCHEMA, [])
    sql = f"""
        SELECT paper_id, release, dump_file, source_file, line, {FIRST_OCCURRENCE} AS kept, {SOURCE_ID} AS source_id
        FROM {_papers_sql(lake_root)}
        QUALIFY count(*) OVER (PARTITION BY paper_id) > 1
        ORDER BY paper_id, release, dump_file, line
    """
    return lake.write_partition_from_query(lake_root, "arxiv_duplicate_papers", sql, [UNARXIVE_2020])


# (dump file, source id) of the occurrences not kept; a repeat within the file that holds the kept one is left to
# that file. The warehouse views (dbt_like_sql/arxiv/*.sql) write the same condition over lake.arxiv_duplicate_papers.
DROPPED_SQL = """
    SELECT DISTINCT dump_file, source_id FROM {papers}
    QUALIFY NOT bool_or(kept) OVER (PARTITION BY dump_file, paper_id)
"""


def dropped_occurrences(lake_root: Path) -> set[tuple[str, str]]:
    """(dump file key, source id) of every occurrence that is not kept."""
    if not lake.has_data(lake_root, "arxiv_duplicate_papers"):
        return set()
    glob = lake.table_glob(lake_root, "arxiv_duplicate_papers").replace("'", "''")
    with bounded() as connection:
        rows = connection.execute(DROPPED_SQL.format(papers=f"read_parquet('{glob}')")).fetchall()
    return {(key, paper) for key, paper in rows}


def is_dropped(dropped: set[tuple[str, str]], key: str, citing_paper_id: str | None) -> bool:
    """Whether a context of ``citing_paper_id`` (as the CSV names it) read from dump file ``key`` is a repeat."""
    if not dropped or not citing_paper_id:
        return False
    return (key, citing_paper_id) in dropped
