"""arXiv papers per MAG level-0 field: the query behind the field partitions every source shares.

A paper's fields are those of its catalogue work (same arXiv id, else its MAG id); a paper the catalogue does not
know falls back to unarXive 2022's ``discipline`` as a MAG field (:mod:`citeworth_assets.lib.arxiv.disciplines`).
The join runs in DuckDB over the lake, reading every dump file's papers.
"""

from __future__ import annotations

from pathlib import Path

from citeworth_assets.lib import lake
from citeworth_assets.lib.arxiv.disciplines import DISCIPLINE_FIELDS

NO_WORKS = "SELECT NULL::VARCHAR AS arxiv_id, NULL::VARCHAR AS mag_id, []::VARCHAR[] AS fields WHERE false"
FIELD_PAPERS_SQL = """
WITH papers AS (
    SELECT DISTINCT ON (paper_id) paper_id, release, mag_id, title, discipline FROM {papers} ORDER BY paper_id, release
), works AS ({works}),
catalogue AS (
    SELECT DISTINCT p.paper_id, unnest(w.fields) AS field_of_study
    FROM papers AS p JOIN works AS w ON w.arxiv_id = p.paper_id OR (p.mag_id IS NOT NULL AND w.mag_id = p.mag_id)
), disciplines AS (
    SELECT unnest(?::VARCHAR[]) AS discipline, unnest(?::VARCHAR[]) AS field_of_study
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


def one_field_query(lake_root: Path, field: str) -> tuple[str, list]:
    """The papers of one field in paper id order, as (SQL, parameters): every (paper, field) pair of the lake's arXiv
    papers, with where the field came from, kept for ``field``."""
    has_works = lake.has_data(lake_root, "works")
    works = _scan("arxiv_id, mag_id, fields") if has_works else NO_WORKS
    sql = FIELD_PAPERS_SQL.format(papers=_scan("paper_id, release, mag_id, title, discipline"), works=works)
    disciplines = sorted(DISCIPLINE_FIELDS.items())
    params = [
        lake.table_glob(lake_root, "arxiv_papers"),
        *([lake.table_glob(lake_root, "works")] if has_works else []),
        [discipline for discipline, _ in disciplines],
        [mag_field for _, mag_field in disciplines],
        field,
    ]
    return ONE_FIELD.format(sql=sql), params


def _scan(columns: str) -> str:
    return f"(SELECT {columns} FROM read_parquet(?, union_by_name = true, hive_partitioning = false))"
