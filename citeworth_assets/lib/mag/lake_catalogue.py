"""The works catalogue built out of core: dump files streamed into staging Parquet, joined and deduplicated in DuckDB.

The MAG's Papers, PaperAuthorAffiliations + Authors and PaperFieldsOfStudy + FieldsOfStudy are read line by
line (bad lines counted, as :mod:`citeworth_assets.lib.mag.tsv` does) into staging tables; OpenAlex works
parts likewise. DuckDB then joins authors (in author order) and level-0 fields onto papers and writes the
``works`` table under a memory limit, spilling to a temporary folder beyond it, so a process never holds
more than the limit whatever the catalogue's size (MAG: about 250M papers).

Duplicates (issue: catalogue duplicates) keep the newest version: for the MAG a ``PaperId`` listed again
later in Papers.txt, for OpenAlex a work listed again in a later ``updated_date=`` folder (as real
snapshots do). Every version not kept is a row of ``work_duplicates``.
"""

from __future__ import annotations

import multiprocessing
import re
import shutil
import tempfile
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from pathlib import Path

from citeworth_assets.lib import lake
from citeworth_assets.lib.duckdb_limits import DuckDbLimits, sql_literal
from citeworth_assets.lib.identifiers import normalise_doi
from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.mag import tsv
from citeworth_assets.lib.mag.catalogue import _arxiv_from_doi, _find, openalex_work, referenced_works
from citeworth_assets.lib.mag.openalex_snapshot import iter_snapshot_records
from citeworth_assets.lib.mag.schemas import work_duplicate_schema, work_reference_schema, work_schema
from citeworth_assets.lib.mag.titles import mag_normalise_title
from citeworth_assets.lib.read_issues import IssueLog, ReadIssue

duckdb = lazy_module("duckdb")
pa = lazy_module("pyarrow")


@cache
def _papers_schema() -> pa.Schema:
    return pa.schema(
        [(n, t) for n, t in zip(work_schema().names, work_schema().types) if n not in ("authors", "fields")]
        + [("paper_id", pa.int64()), ("version", pa.string())]
    )


@cache
def _names_schema() -> pa.Schema:
    return pa.schema([("author_id", pa.int64()), ("name", pa.string()), ("line", pa.int64())])


@cache
def _paper_authors_schema() -> pa.Schema:
    return pa.schema(
        [
            ("paper_id", pa.int64()),
            ("author_id", pa.int64()),
            ("seq", pa.int64()),
            ("original", pa.string()),
            ("line", pa.int64()),
        ]
    )


@cache
def _paper_fields_schema() -> pa.Schema:
    return pa.schema([("paper_id", pa.int64()), ("field_id", pa.int64())])


@cache
def _fields_schema() -> pa.Schema:
    return pa.schema([("field_id", pa.int64()), ("name", pa.string())])


@cache
def _openalex_schema() -> pa.Schema:
    return pa.schema(list(zip(work_schema().names, work_schema().types)) + [("version", pa.string())])


_UPDATED = re.compile(r"updated_date=([^/\\]+)")


def _stage_mag(folder: Path, stage: Path, log: IssueLog) -> bool:
    """MAG files -> staging tables; False when there is no Papers.txt."""
    papers = _find(folder, tsv.PAPERS.name)
    if papers is None:
        log.add(ReadIssue(str(folder / tsv.PAPERS.name), None, None, "missing_file", "no Papers.txt"))
        return False
    lake.write_partition(stage, "papers", _papers_schema(), _paper_rows(papers, log))
    rows = {
        "names": (
            tsv.AUTHORS,
            _names_schema(),
            lambda r: (r["AuthorId"], r["DisplayName"] or r["NormalizedName"], r["_line"]),
        ),
        "paper_authors": (
            tsv.PAPER_AUTHOR_AFFILIATIONS,
            _paper_authors_schema(),
            lambda r: (
                r["PaperId"],
                r["AuthorId"],
                r["AuthorSequenceNumber"] or 0,
                r.get("OriginalAuthor"),
                r["_line"],
            ),
        ),
        "paper_fields": (
            tsv.PAPER_FIELDS_OF_STUDY,
            _paper_fields_schema(),
            lambda r: (r["PaperId"], r["FieldOfStudyId"]),
        ),
        "fields": (
            tsv.FIELDS_OF_STUDY,
            _fields_schema(),
            lambda r: (r["FieldOfStudyId"], r["DisplayName"]) if r["Level"] == 0 else None,
        ),
    }
    for table, (spec, schema, pick) in rows.items():
        path = _find(folder, spec.name)
        source = tsv.read_mag_file(path, spec, log) if path else ()
        values = (v for v in map(pick, source) if v is not None)
        lake.write_partition(stage, table, schema, (dict(zip(schema.names, v)) for v in values))
    return True


def _paper_rows(path: Path, log: IssueLog) -> Iterator[dict]:
    for row in tsv.read_mag_file(path, tsv.PAPERS, log):
        title = row.get("OriginalTitle") or row.get("PaperTitle")
        yield {
            "paper_id": row["PaperId"],
            "work_id": f"mag:{row['PaperId']}",
            "source": "mag",
            "mag_id": str(row["PaperId"]),
            "openalex_id": None,
            "title": title,
            "normalised_title": mag_normalise_title(row.get("PaperTitle") or title),
            "year": row.get("Year"),
            "citation_count": row.get("CitationCount") or 0,
            "doi": normalise_doi(row.get("Doi")),
            "arxiv_id": _arxiv_from_doi(row.get("Doi")),
            "source_file": path.name,
            "line": row["_line"],
            "version": f"{row['_line']:012d}",
        }


def _stage_openalex(snapshot: Path, stage: Path, log: IssueLog, edges: lake.PartitionWriter) -> None:
    def rows() -> Iterator[dict]:
        for entry in iter_snapshot_records(snapshot, log):
            found = _UPDATED.search(str(entry.path))
            folder = found.group(1) if found else ""
            row = openalex_work(entry.record, entry.path, entry.number, log)
            if row is None:
                continue
            for short in referenced_works(entry.record, entry.path, entry.number, row["work_id"], log):
                edges.write({"citing_work_id": row["work_id"], "cited_work_id": short, "source": "openalex"})
            yield {**row, "version": f"{folder}/{entry.path.name}/{entry.number:012d}"}

    lake.write_partition(stage, "openalex", _openalex_schema(), rows())


def _copy(connection, stage: Path, name: str, sql: str) -> str:
    """Materialise one step as Parquet in the stage (each step alone stays within the memory limit); its path."""
    path = str(stage / f"{name}.parquet")
    connection.execute(f"COPY ({sql}) TO ? (FORMAT parquet)", [path])
    connection.execute(f"CREATE VIEW {name} AS SELECT * FROM read_parquet({sql_literal(path)})")
    return path


def _views(connection: duckdb.DuckDBPyConnection, stage: Path, has_mag: bool, has_openalex: bool) -> None:
    """``versions`` (every staged work row with its id) and ``counted`` (versions per id, the newest), built step by
    step: author lists, field lists, MAG rows, then the union with OpenAlex."""
    parts = []
    if has_mag:
        for table in ("papers", "names", "paper_authors", "paper_fields", "fields"):
            glob = sql_literal(lake.table_glob(stage, table))
            connection.execute(f"CREATE VIEW {table} AS SELECT * FROM read_parquet({glob})")
        _copy(connection, stage, "names1", "SELECT author_id, arg_max(name, line) AS name FROM names GROUP BY 1")
        _copy(
            connection,
            stage,
            "listed",
            """SELECT a.paper_id, list(coalesce(n.name, a.original) ORDER BY a.seq, a.line)
                 FILTER (WHERE coalesce(n.name, a.original) IS NOT NULL) AS authors
               FROM paper_authors a LEFT JOIN names1 n USING (author_id) GROUP BY a.paper_id""",
        )
        _copy(
            connection,
            stage,
            "fielded",
            """SELECT p.paper_id, list(DISTINCT f.name ORDER BY f.name) AS fields
               FROM paper_fields p JOIN (SELECT field_id, arg_max(name, name) AS name FROM fields GROUP BY field_id) f
               USING (field_id) GROUP BY p.paper_id""",
        )
        _copy(
            connection,
            stage,
            "mag_versions",
            """SELECT p.* EXCLUDE (paper_id), coalesce(l.authors, []) AS authors, coalesce(f.fields, []) AS fields,
                 0 AS rank
               FROM papers p LEFT JOIN listed l USING (paper_id) LEFT JOIN fielded f USING (paper_id)""",
        )
        parts.append("SELECT * FROM mag_versions")
    if has_openalex:
        glob = sql_literal(lake.table_glob(stage, "openalex"))
        connection.execute(f"CREATE VIEW openalex AS SELECT *, 1 AS rank FROM read_parquet({glob})")
        parts.append("SELECT * FROM openalex")
    connection.execute(f"CREATE VIEW versions AS {' UNION ALL BY NAME '.join(parts)}")
    _copy(
        connection,
        stage,
        "counted",
        "SELECT work_id, count(*) AS versions, max(version) AS newest FROM versions GROUP BY work_id",
    )


def _stream(connection, sql: str, lake_root: Path, table: str, schema: pa.Schema) -> int:
    """A query's result into a lake table, batch by batch (DuckDB sorts and joins out of core)."""
    reader = connection.sql(sql).to_arrow_reader(20_000)
    with lake.PartitionWriter(lake_root, table, schema) as writer:
        for batch in reader:
            writer.write_table(pa.Table.from_batches([batch]))
    return writer.rows_written


def _write_works(connection, lake_root: Path) -> tuple[int, int]:
    columns = ", ".join(f"v.{name}" for name in work_schema().names)
    kept = _stream(
        connection,
        f"""SELECT {columns} FROM versions v JOIN counted c ON v.work_id = c.work_id AND v.version = c.newest
        ORDER BY v.rank, v.version""",
        lake_root,
        "works",
        work_schema(),
    )
    duplicates = _stream(
        connection,
        """SELECT v.work_id, v.source, c.versions, v.source_file, v.line, v.title,
                 k.source_file AS kept_source_file, k.line AS kept_line, k.title AS kept_title
        FROM versions v JOIN counted c ON v.work_id = c.work_id AND v.version <> c.newest
        JOIN versions k ON k.work_id = c.work_id AND k.version = c.newest
        ORDER BY v.rank, v.work_id, v.version""",
        lake_root,
        "work_duplicates",
        work_duplicate_schema(),
    )
    return kept, duplicates


def field_counts(lake_root: Path, limits: DuckDbLimits | None = None) -> dict[str, int]:
    """Works per level-0 field of the ``works`` table (counted in DuckDB)."""
    if not lake.has_data(lake_root, "works"):
        return {}
    works = lake.table_glob(lake_root, "works")
    with (limits or DuckDbLimits()).connect() as connection:
        sql = "SELECT field, count(*) FROM (SELECT unnest(fields) AS field FROM read_parquet(?)) GROUP BY 1"
        rows = connection.execute(sql, [works]).fetchall()
    return dict(sorted(rows))


def build_works(
    lake_root: Path, mag: Path | None, openalex: Path | None, log: IssueLog, limits: DuckDbLimits | None = None
) -> dict:
    """Write ``works``, ``work_duplicates`` and ``work_references``; returns the counts."""
    limits = limits or DuckDbLimits()
    (lake_root / lake.STAGING).mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(prefix="catalogue.", dir=lake_root / lake.STAGING))
    try:
        with lake.PartitionWriter(lake_root, "work_references", work_reference_schema()) as edges:
            has_mag = mag is not None and _stage_mag(mag, stage, log)
            if openalex is not None:
                _stage_openalex(openalex, stage, log, edges)
            if has_mag and (path := _find(mag, tsv.PAPER_REFERENCES.name)):
                edges.write_all(
                    {
                        "citing_work_id": f"mag:{r['PaperId']}",
                        "cited_work_id": f"mag:{r['PaperReferenceId']}",
                        "source": "mag",
                    }
                    for r in tsv.read_mag_file(path, tsv.PAPER_REFERENCES, log)
                )
        if not has_mag and openalex is None:
            lake.write_partition(lake_root, "works", work_schema(), [])
            lake.write_partition(lake_root, "work_duplicates", work_duplicate_schema(), [])
            return {"works": 0, "duplicates": 0, "edges": edges.rows_written}
        (stage / "duckdb_tmp").mkdir()
        with limits.connect(stage / "duckdb_tmp") as connection:
            _views(connection, stage, has_mag, openalex is not None)
            kept, duplicates = _write_works(connection, lake_root)
        return {"works": kept, "duplicates": duplicates, "edges": edges.rows_written}
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def _build_apart(
    lake_root: Path, mag: Path | None, openalex: Path | None, limits: DuckDbLimits
) -> tuple[dict, IssueLog]:
    log = IssueLog()
    return build_works(lake_root, mag, openalex, log, limits), log


def build_works_apart(
    lake_root: Path, mag: Path | None, openalex: Path | None, log: IssueLog, limits: DuckDbLimits | None = None
) -> dict:
    """:func:`build_works` in a fresh process: its memory (staging, then DuckDB up to the limit) never adds to that of
    the process asking (a run holding the whole graph), and goes back to the system when it ends."""
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        counts, issues = pool.submit(_build_apart, lake_root, mag, openalex, limits or DuckDbLimits()).result()
    for kind, count in issues.counts.items():
        log.counts[kind] = log.counts.get(kind, 0) + count
    log.issues.extend(issues.issues[: max(log.keep - len(log.issues), 0)])
    return counts
