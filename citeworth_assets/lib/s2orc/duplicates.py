"""Papers that appear in more than one shard: the first occurrence by release, shard and line wins.

Each shard reader already skips (and reports) a paper_id repeated within its file; a paper_id
repeated across shards can only be seen once every shard is in the lake, so it is listed here, every
occurrence with whether it is the one kept. Datasets that join across shards take the kept row.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from citeworth_assets.lib import lake

DUPLICATE_SCHEMA = pa.schema(
    [
        ("paper_id", pa.string()),
        ("release", pa.string()),
        ("shard", pa.string()),
        ("source_file", pa.string()),
        ("line", pa.int64()),
        ("kept", pa.bool_()),
    ]
)
FIRST_OCCURRENCE = "row_number() OVER (PARTITION BY paper_id ORDER BY release, shard, line) = 1"


def write_duplicate_papers(lake_root: Path) -> int:
    """Write ``s2orc_duplicate_papers``: every occurrence of a paper_id found in several shards."""
    if not lake.has_data(lake_root, "s2orc_papers"):
        return lake.write_partition(lake_root, "s2orc_duplicate_papers", DUPLICATE_SCHEMA, [])
    sql = f"""
        SELECT paper_id, release, shard, source_file, line, {FIRST_OCCURRENCE} AS kept
        FROM read_parquet('{lake.table_glob(lake_root, "s2orc_papers")}')
        QUALIFY count(*) OVER (PARTITION BY paper_id) > 1
        ORDER BY paper_id, release, shard, line
    """
    return lake.write_partition_from_query(lake_root, "s2orc_duplicate_papers", sql, [])
