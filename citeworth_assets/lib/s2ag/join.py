"""``s2orc_papers`` of one S2AG full-text file: its full-text part joined with the release's staged metadata.

The file's full-text rows (:func:`~.records.full_text_schema`, one per paper: bounded by the partition) are written
to a temporary Parquet file; DuckDB then joins them with the staged ``papers`` and ``abstracts`` by corpus id under
the platform's memory limit. The staged tables are only scanned (the corpus id column first; the other columns
of the rows that match), never loaded, so memory follows the partition, not the release's 200M ``papers`` rows.

The 2020 metadata columns from S2AG (the candidate filter reads them; docs/s2ag.md states each criterion):

- title, authors (each ``name`` split into first / middle / last), year, venue, ``journal.name``, the external
  ids (ArXiv, ACL, PubMed, PubMedCentral, DOI, MAG) and the URL from ``papers``; a paper without a ``papers`` row
  keeps the full text's title and external ids;
- ``abstract`` from ``abstracts``, as the 2020 metadata's abstract (CiteWorth's ``abstract`` criterion reads it; a
  paper whose abstract S2 does not distribute fails it in both layouts); only where the release has no ``abstracts``
  dataset at all does the full text's abstract span stand in (counted as ``abstract_from_full_text``);
- ``mag_field_of_study`` from ``s2fieldsofstudy`` (see :mod:`.metadata`);
- ``has_inbound_citations``: ``citationcount > 0``; ``has_outbound_citations``: ``referencecount > 0``; the
  citation id lists stay empty (they are the ``citations`` dataset, which nothing downstream reads);
- ``has_pdf_parse`` true; ``has_pdf_parsed_abstract`` / ``_body_text`` / ``_bib_entries`` / ``_ref_entries`` from the
  full text's annotations (an abstract span, a paragraph, a bibliography entry, a figure or table); for
  ``s2orc_v2``, which has no abstract span, the abstract flag says whether ``abstracts`` gives one;
  ``has_pdf_body_text`` equals ``has_pdf_parsed_body_text``.
"""

from __future__ import annotations

import shutil
import uuid
from dataclasses import dataclass
from pathlib import Path

from citeworth_assets.lib import lake
from citeworth_assets.lib.duckdb_limits import DuckDbLimits
from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.read_issues import IssueLog
from citeworth_assets.lib.s2ag import layout, staging
from citeworth_assets.lib.s2ag.records import full_text_batches, full_text_schema
from citeworth_assets.lib.s2orc.schema import ShardSource, paper_schema

pa = lazy_module("pyarrow")
pq = lazy_module("pyarrow.parquet")

STREAM_ROWS = 5_000


@dataclass
class JoinedPapers:
    papers: int = 0
    with_papers_row: int = 0
    with_abstract: int = 0
    abstract_from_full_text: int = 0
    metadata_staged: bool = False


def _staged_files(lake_root: Path, table: str, release: str) -> list[str]:
    folder = lake.partition_dir(lake_root, table, layout.release_key(release), staging.RELEASE_DIMENSION)
    return [str(path) for path in sorted(folder.glob("*.parquet"))]


def _staged_relation(table: str, files: list[str]) -> str:
    """A SQL relation over the staged files of the release (the query's parameter ``$<table>``), or an empty one of
    the same columns."""
    if files:
        return f"read_parquet(${table})"
    columns = "NULL::BIGINT AS corpusid"
    if table == staging.PAPERS:
        columns += (
            ", NULL::VARCHAR AS title, NULL::STRUCT(first VARCHAR, middle VARCHAR[], last VARCHAR, suffix VARCHAR)[]"
            " AS authors, NULL::INTEGER AS year, NULL::VARCHAR AS venue, NULL::VARCHAR AS journal, "
            "NULL::VARCHAR AS arxiv_id, NULL::VARCHAR AS acl_id, NULL::VARCHAR AS pubmed_id, NULL::VARCHAR AS pmc_id, "
            "NULL::VARCHAR AS doi, NULL::VARCHAR AS mag_id, NULL::VARCHAR AS s2_url, "
            "NULL::VARCHAR[] AS mag_field_of_study, NULL::BIGINT AS citation_count, NULL::BIGINT AS reference_count"
        )
    else:
        columns += ", NULL::VARCHAR AS abstract"
    return f"(SELECT {columns} WHERE false)"


JOIN_SQL = """
SELECT f.paper_id,
       coalesce(p.title, f.title) AS title,
       coalesce(p.authors, []) AS authors,
       CASE WHEN $abstracts_staged THEN a.abstract ELSE f.abstract END AS abstract,
       p.year,
       coalesce(p.arxiv_id, f.ft_arxiv) AS arxiv_id,
       coalesce(p.acl_id, f.ft_acl) AS acl_id,
       coalesce(p.pmc_id, f.ft_pubmedcentral) AS pmc_id,
       coalesce(p.pubmed_id, f.ft_pubmed) AS pubmed_id,
       coalesce(p.doi, f.ft_doi) AS doi,
       p.venue,
       p.journal,
       coalesce(p.mag_id, f.ft_mag) AS mag_id,
       p.mag_field_of_study,
       []::VARCHAR[] AS outbound_citations,
       []::VARCHAR[] AS inbound_citations,
       coalesce(p.reference_count, 0) > 0 AS has_outbound_citations,
       coalesce(p.citation_count, 0) > 0 AS has_inbound_citations,
       true AS has_pdf_parse,
       f.has_pdf_parsed_body_text AS has_pdf_body_text,
       CASE WHEN $v2 THEN a.abstract IS NOT NULL ELSE f.has_pdf_parsed_abstract END AS has_pdf_parsed_abstract,
       f.has_pdf_parsed_body_text,
       f.has_pdf_parsed_bib_entries,
       f.has_pdf_parsed_ref_entries,
       p.s2_url,
       f.release, f.shard, f.source_file, f.line, f.byte_offset,
       p.corpusid IS NOT NULL AS _has_papers_row,
       NOT $abstracts_staged AND f.abstract IS NOT NULL AS _abstract_from_full_text
FROM read_parquet($full_text) f
LEFT JOIN (SELECT * FROM {papers} s WHERE s.corpusid IN (SELECT corpusid FROM read_parquet($full_text))) p
       ON p.corpusid = f.corpusid
LEFT JOIN (SELECT * FROM {abstracts} s WHERE s.corpusid IN (SELECT corpusid FROM read_parquet($full_text))) a
       ON a.corpusid = f.corpusid
ORDER BY f.line
"""


def write_papers(lake_root: Path, file: layout.S2agFile, source: ShardSource, log: IssueLog) -> JoinedPapers:
    """Write ``s2orc_papers`` for an S2AG full-text file (partition ``source.shard``)."""
    temp = Path(lake_root) / lake.STAGING / f"s2ag_join.{source.shard}.{uuid.uuid4().hex}"
    temp.mkdir(parents=True)
    joined = JoinedPapers(metadata_staged=staging.staged_signature(lake_root, file.release) is not None)
    try:
        full_text = temp / "full_text.parquet"
        with pq.ParquetWriter(full_text, full_text_schema(), compression="zstd") as writer:
            for table in full_text_batches(source, log):
                writer.write_table(table)
        staged = {table: _staged_files(lake_root, table, file.release) for table in (staging.PAPERS, staging.ABSTRACTS)}
        sql = JOIN_SQL.format(
            papers=_staged_relation(staging.PAPERS, staged[staging.PAPERS]),
            abstracts=_staged_relation(staging.ABSTRACTS, staged[staging.ABSTRACTS]),
        )
        connection = DuckDbLimits.from_environment().connect(temp / "duckdb")
        connection.execute("SET enable_external_file_cache = false")  # the staged files are read once: no cache
        try:
            params = {"full_text": str(full_text), "v2": file.dataset == "s2orc_v2"}
            params |= {table: files for table, files in staged.items() if files}
            params["abstracts_staged"] = bool(staged[staging.ABSTRACTS])
            reader = connection.sql(sql, params=params).to_arrow_reader(STREAM_ROWS)
            with lake.PartitionWriter(lake_root, "s2orc_papers", paper_schema(), source.shard) as out:
                for batch in reader:
                    table = pa.Table.from_batches([batch])
                    joined.with_papers_row += sum(table.column("_has_papers_row").to_pylist())
                    joined.with_abstract += sum(1 for text in table.column("abstract").to_pylist() if text)
                    joined.abstract_from_full_text += sum(table.column("_abstract_from_full_text").to_pylist())
                    out.write_table(table)
            joined.papers = out.rows_written
        finally:
            connection.close()
    finally:
        shutil.rmtree(temp, ignore_errors=True)
    return joined
