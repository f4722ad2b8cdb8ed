"""CiteSum lake tables, and the joins that need every shard (cited papers may be in any of them)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

from citeworth_assets.lib import lake
from citeworth_assets.lib.citesum.card import CARD
from citeworth_assets.lib.citesum.construction import SPLITS, release_record
from citeworth_assets.lib.duckdb_limits import bounded
from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.releases import write_release

pa = lazy_module("pyarrow")


@cache
def candidate_schema() -> pa.Schema:
    return pa.schema(
        [
            ("citing_paper_id", pa.string()),
            ("cited_paper_id", pa.string()),
            ("paragraph_index", pa.int32()),
            ("sentence_index", pa.int32()),
            ("sentence", pa.string()),
            ("target", pa.string()),
            ("rouge1_recall", pa.float64()),
            ("rouge2_recall", pa.float64()),
            ("rougeL_recall", pa.float64()),
            ("kept", pa.bool_()),
            ("failed_thresholds", pa.list_(pa.string())),  # the ROUGE types below their threshold
            ("shard", pa.string()),
        ]
    )


@cache
def drop_schema() -> pa.Schema:
    return pa.schema(
        [
            ("citing_paper_id", pa.string()),
            ("paragraph_index", pa.int32()),
            ("sentence_index", pa.int32()),
            ("sentence", pa.string()),
            ("reason", pa.string()),
            ("shard", pa.string()),
        ]
    )


@cache
def example_schema() -> pa.Schema:
    return pa.schema(
        [
            *[
                candidate_schema().field(name)
                for name in candidate_schema().names
                if name not in ("kept", "failed_thresholds", "shard")
            ],
            ("title", pa.string()),
            ("abstract", pa.string()),
            ("discipline", pa.string()),
            ("split", pa.string()),
        ]
    )


@cache
def statistics_schema() -> pa.Schema:
    return pa.schema(
        [
            ("split", pa.string()),
            ("examples", pa.int64()),
            ("mean_source_words", pa.float64()),
            ("mean_summary_words", pa.float64()),
        ]
    )


@cache
def discipline_schema() -> pa.Schema:
    return pa.schema([("discipline", pa.string()), ("cited_papers", pa.int64())])


@cache
def baseline_schema() -> pa.Schema:
    return pa.schema(
        [
            ("method", pa.string()),
            ("rouge1", pa.float64()),
            ("rouge2", pa.float64()),
            ("rougeL", pa.float64()),
            ("examples", pa.int64()),
        ]
    )


@cache
def cited_abstract_schema() -> pa.Schema:
    return pa.schema(
        [
            ("paper_id", pa.string()),
            ("title", pa.string()),
            ("abstract", pa.string()),
            ("mag_field_of_study", pa.list_(pa.string())),
        ]
    )


CITED_ABSTRACTS = "citesum_cited_abstracts"


def write_cited_abstract_catalogue(lake_root: Path) -> int:
    """The catalogue of every paper linked from a citation span of any shard, with its title, abstract and fields.

    Candidates are scored against this table, not against whatever ``s2orc_papers`` holds when a shard
    runs, so that the dataset depends on every shard and a rebuild equals a fresh build. A paper_id
    present in several shards takes its first row by release, shard and line.
    """
    if not (lake.has_data(lake_root, "s2orc_papers") and lake.has_data(lake_root, "s2orc_paragraphs")):
        return lake.write_partition(lake_root, CITED_ABSTRACTS, cited_abstract_schema(), [])
    sql = """
        WITH cited AS (
            SELECT DISTINCT span.linked_paper_id AS paper_id
            FROM read_parquet($paragraphs), unnest(cite_spans) AS s(span)
            WHERE span.linked_paper_id IS NOT NULL
        )
        SELECT p.paper_id, p.title, p.abstract, p.mag_field_of_study
        FROM read_parquet($papers) AS p JOIN cited USING (paper_id)
        QUALIFY row_number() OVER (PARTITION BY p.paper_id ORDER BY p.release, p.shard, p.line) = 1
        ORDER BY p.paper_id
    """
    globs = {name: lake.table_glob(lake_root, f"s2orc_{name}") for name in ("paragraphs", "papers")}
    if lake.has_data(lake_root, "s2ag_abstracts"):
        sql = S2AG_CITED_ABSTRACTS
        globs |= {name: lake.table_glob(lake_root, f"s2ag_{name}") for name in ("abstracts", "papers")}
        globs["staged"] = globs.pop("papers")
        globs["papers"] = lake.table_glob(lake_root, "s2orc_papers")
    return lake.write_partition_from_query(lake_root, CITED_ABSTRACTS, sql, globs)


# The catalogue where S2AG releases are staged: a cited paper is rarely among the full texts, so its abstract comes
# from the staged ``abstracts`` (title and fields from ``papers``) by its corpus id, the entry's ``matched_paper_id``;
# a paper that ``s2orc_papers`` holds keeps that row, as without S2AG. Of several staged releases the newest (by
# release folder name) gives the row.
S2AG_CITED_ABSTRACTS = """
        WITH cited AS (
            SELECT DISTINCT span.linked_paper_id AS paper_id
            FROM read_parquet($paragraphs), unnest(cite_spans) AS s(span)
            WHERE span.linked_paper_id IS NOT NULL
        ), own AS (
            SELECT p.paper_id, p.title, p.abstract, p.mag_field_of_study
            FROM read_parquet($papers) AS p JOIN cited USING (paper_id)
            QUALIFY row_number() OVER (PARTITION BY p.paper_id ORDER BY p.release, p.shard, p.line) = 1
        ), abstracts AS (
            SELECT CAST(corpusid AS VARCHAR) AS paper_id, abstract, regexp_extract(filename, 'release=([^/]+)', 1) AS rk
            FROM read_parquet($abstracts, filename = true, hive_partitioning = false)
            WHERE abstract IS NOT NULL AND CAST(corpusid AS VARCHAR) IN (SELECT paper_id FROM cited)
        ), staged AS (
            SELECT CAST(corpusid AS VARCHAR) AS paper_id, title, mag_field_of_study,
                   regexp_extract(filename, 'release=([^/]+)', 1) AS rk
            FROM read_parquet($staged, filename = true, hive_partitioning = false)
            WHERE CAST(corpusid AS VARCHAR) IN (SELECT paper_id FROM abstracts)
        ), from_s2ag AS (
            SELECT a.paper_id, s.title, a.abstract, s.mag_field_of_study
            FROM abstracts a LEFT JOIN staged s ON s.paper_id = a.paper_id AND s.rk = a.rk
            WHERE a.paper_id NOT IN (SELECT paper_id FROM own)
            QUALIFY row_number() OVER (PARTITION BY a.paper_id ORDER BY a.rk DESC) = 1
        )
        SELECT * FROM own UNION ALL SELECT * FROM from_s2ag
        ORDER BY paper_id
    """


def catalogued_papers(lake_root: Path, paper_ids: set[str]) -> dict[str, dict]:
    """Title, abstract and fields of study of the given papers, from the cited-abstract catalogue."""
    if not paper_ids:
        return {}
    table = lake.read_partition(lake_root, CITED_ABSTRACTS)
    return {row["paper_id"]: row for row in table.to_pylist() if row["paper_id"] in paper_ids}


def kept_candidates(lake_root: Path) -> list[dict]:
    """Every kept candidate of every shard, in shard order; a citing paper found in several shards gives the
    candidates of its first occurrence only (``s2orc_duplicate_papers``), as in CiteWorth."""
    if not lake.has_data(lake_root, "citesum_candidates"):
        return []
    repeats = lake.has_data(lake_root, "s2orc_duplicate_papers")
    not_repeated = (
        "AND NOT EXISTS (SELECT 1 FROM read_parquet(?) AS d "
        "WHERE NOT d.kept AND d.paper_id = c.citing_paper_id AND d.shard = c.shard) "
        if repeats
        else ""
    )
    query = (
        "SELECT * EXCLUDE (kept, failed_thresholds) FROM read_parquet(?) AS c "
        f"WHERE kept {not_repeated}ORDER BY shard, citing_paper_id, paragraph_index, sentence_index"
    )
    params = [lake.table_glob(lake_root, "citesum_candidates")]
    params += [lake.table_glob(lake_root, "s2orc_duplicate_papers")] if repeats else []
    with bounded() as connection:
        return connection.sql(query, params=params).to_arrow_table().to_pylist()


def export_release(table: pa.Table, folder: Path, s2ag: Sequence[str] = ()) -> tuple[Path, dict]:
    """``train``/``validation``/``test.jsonl`` in the published CiteSum fields and ``citesum.parquet``; the card
    names the ``s2ag`` releases the candidates were read from (the examples carry no provenance columns)."""
    return folder, write_release(folder, table, SPLITS, release_record, "citesum.parquet", CARD, s2ag)
