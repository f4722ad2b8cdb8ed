"""arXiv papers found in several unarXive dump files (``arxiv_duplicate_papers``, written by
:mod:`citeworth_assets.lib.duplicates`): the context export writes the contexts of the kept occurrence only, so a
paper listed in seven files is not exported seven times.
"""

from __future__ import annotations

from pathlib import Path

from citeworth_assets.lib import lake
from citeworth_assets.lib.duckdb_limits import bounded
from citeworth_assets.lib.identifiers import normalise_arxiv_id


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
