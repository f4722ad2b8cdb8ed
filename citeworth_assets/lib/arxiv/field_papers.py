"""arXiv papers per MAG level-0 field: the query behind the field partitions every source shares.

A paper's fields are those of its catalogue work (same arXiv id, else its MAG id); a paper the catalogue does not
know falls back to unarXive 2022's ``discipline`` as a MAG field (:mod:`citeworth_assets.lib.arxiv.disciplines`).
The join runs in DuckDB over the lake, reading every dump file's papers.
"""

from __future__ import annotations

from pathlib import Path

from citeworth_assets.lib import lake
from citeworth_assets.lib.arxiv.disciplines import discipline_values_sql
from citeworth_assets.lib.duckdb_limits import bounded
from citeworth_assets.lib.fields import FIELD_BY_KEY

NO_WORKS = "SELECT NULL::VARCHAR AS arxiv_id, NULL::VARCHAR AS mag_id, []::VARCHAR[] AS fields WHERE false"
FIELD_PAPERS_SQL = """
WITH papers AS (
    SELECT DISTINCT ON (paper_id) paper_id, release, mag_id, title, discipline FROM {papers} ORDER BY paper_id, release
), works AS ({works}),
catalogue AS (
    SELECT DISTINCT p.paper_id, unnest(w.fields) AS field_of_study
    FROM papers AS p JOIN works AS w ON w.arxiv_id = p.paper_id OR (p.mag_id IS NOT NULL AND w.mag_id = p.mag_id)
), disciplines AS (
    SELECT * FROM (VALUES {disciplines}) AS d(discipline, field_of_study)
), paper_fields AS (
    SELECT paper_id, field_of_study, 'catalogue' AS field_source FROM catalogue
    UNION ALL
    SELECT p.paper_id, d.field_of_study, 'discipline' FROM papers AS p JOIN disciplines AS d USING (discipline)
    WHERE p.paper_id NOT IN (SELECT paper_id FROM catalogue)
)
SELECT * FROM (
    SELECT
        p.paper_id, p.release, p.mag_id, p.title, p.discipline, f.field_of_study, f.field_source,
        trim(regexp_replace(lower(f.field_of_study), '[^a-z0-9]+', '_', 'g'), '_') AS field_key
    FROM paper_fields AS f JOIN papers AS p USING (paper_id)
)
"""
ONE_FIELD = "SELECT * FROM ({sql}) WHERE field_key = ? ORDER BY paper_id"


def field_papers_sql(lake_root: Path) -> str:
    """Every (paper, field) pair of the lake's arXiv papers, with where the field came from."""
    works = _scan(lake_root, "works", "arxiv_id, mag_id, fields") if lake.has_data(lake_root, "works") else NO_WORKS
    papers = _scan(lake_root, "arxiv_papers", "paper_id, release, mag_id, title, discipline")
    return FIELD_PAPERS_SQL.format(papers=papers, works=works, disciplines=discipline_values_sql())


def one_field_sql(lake_root: Path) -> str:
    """The papers of one field (the field key is the query's parameter), in paper id order."""
    return ONE_FIELD.format(sql=field_papers_sql(lake_root))


def fields_with_papers(lake_root: Path) -> list[str]:
    """The field partition keys that some arXiv paper has (``citeworth build`` gathers only those); a catalogue field
    that is no partition key is left out (mag_fields_of_study's check reports it)."""
    if not lake.has_data(lake_root, "arxiv_papers"):
        return []
    with bounded() as connection:
        rows = connection.execute(
            f"SELECT DISTINCT field_key FROM ({field_papers_sql(lake_root)}) ORDER BY 1"
        ).fetchall()
    return [key for (key,) in rows if key in FIELD_BY_KEY]


def _scan(lake_root: Path, table: str, columns: str) -> str:
    path = lake.table_glob(lake_root, table).replace("'", "''")
    return f"(SELECT {columns} FROM read_parquet('{path}', union_by_name = true, hive_partitioning = false))"
