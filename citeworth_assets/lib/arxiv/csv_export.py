"""The arXiv context export: every dump file's contexts from the lake as unarXive's CSV (``contexts.csv``, in the
format of :mod:`citeworth_assets.lib.context_csv`) with the catalogue of the works they name (``catalogue.jsonl``,
``{"id", "year", "title", "fields_of_study"}``, ids as the reader reads them back from the written line), published
together, so the citation-recommendation reader finds years, titles and fields beside the CSV.

A paper found in several dump files (``arxiv_duplicate_papers``) is exported once: the contexts of the occurrences
not kept are left out, so a paper listed in seven files is not exported seven times.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path

from citeworth_assets.lib import lake
from citeworth_assets.lib.arxiv.schemas import DUMP_FILE_DIMENSION
from citeworth_assets.lib.context_csv import CsvRepairs, context_csv_line, line_work_ids, mag_or_openalex
from citeworth_assets.lib.duckdb_limits import bounded
from citeworth_assets.lib.identifiers import normalise_arxiv_id
from citeworth_assets.lib.lazy import lazy_module

pa = lazy_module("pyarrow")

CONTEXTS_FILE, CATALOGUE_FILE = "contexts.csv", "catalogue.jsonl"


def write_contexts_csv(rows: Iterable[dict], path: str | Path, repairs: CsvRepairs | None = None) -> int:
    """Write contexts (rows of ``arxiv_contexts``' schema) as unarXive's CSV; returns the line count. What had to be
    replaced is counted in ``repairs``."""
    return sum(1 for _ in _written_lines(rows, path, repairs if repairs is not None else CsvRepairs()))


def _written_lines(rows: Iterable[dict], path: str | Path, repairs: CsvRepairs) -> Iterator[str]:
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        for row in rows:
            line = context_csv_line(row, repairs)
            out.write(line)
            yield line


def lake_contexts(lake_root: Path, dropped: set[tuple[str, str]] | None = None) -> Iterator[dict]:
    """Every dump file's contexts from the lake: partitions by key, rows in their stored order; the contexts of a
    paper's ``dropped`` occurrences (another dump file holds the kept one) are left out."""
    folder = lake_root / "arxiv_contexts"
    prefix = f"{DUMP_FILE_DIMENSION}="
    keys = sorted(p.name.removeprefix(prefix) for p in folder.glob(f"{prefix}*")) if folder.is_dir() else []
    for key in keys:
        for row in lake.iter_partition_rows(lake_root, "arxiv_contexts", key, dimension=DUMP_FILE_DIMENSION):
            if not is_dropped(dropped or set(), key, row["citing_paper_id"]):
                yield row


def export_lake_contexts(
    lake_root: Path, path: Path, repairs: CsvRepairs, dropped: set[tuple[str, str]] | None = None
) -> tuple[int, set[str]]:
    """The lake's contexts -> unarXive's CSV at ``path``; returns the line count and the work ids they name."""
    ids: set[str] = set()
    count = 0
    for line in _written_lines(lake_contexts(lake_root, dropped), path, repairs):
        ids.update(line_work_ids(line))
        count += 1
    return count, ids


def catalogue_rows(lake_root: Path, ids: set[str]) -> list[dict]:
    """What the works catalogue and the arXiv papers say about each id (MAG id or OpenAlex number, ``arXiv:<id>``)."""
    arxiv = {normalise_arxiv_id(i.removeprefix("arXiv:")): i for i in ids if i.startswith("arXiv:")}
    info: dict[str, dict] = {}
    for work in _works_naming(lake_root, ids, set(arxiv)):
        openalex_number = mag_or_openalex(None, work["openalex_id"])
        if work["mag_id"] in ids:
            found = work["mag_id"]
        else:
            found = openalex_number if openalex_number in ids else arxiv.get(work["arxiv_id"])
        if found and found not in info:
            info[found] = {"year": work["year"], "title": work["title"], "fields_of_study": work["fields"] or []}
    # titles and the discipline fallback of arXiv papers
    for paper in lake.iter_table_rows(lake_root, "arxiv_papers", ["paper_id", "mag_id", "title", "discipline"]):
        found = paper["mag_id"] if paper["mag_id"] in ids else arxiv.get(paper["paper_id"])
        if found:
            entry = info.setdefault(found, {"year": None, "title": None, "fields_of_study": []})
            entry["title"] = entry["title"] or paper["title"]
            entry["fields_of_study"] = entry["fields_of_study"] or (
                [paper["discipline"]] if paper["discipline"] else []
            )
    empty = {"year": None, "title": None, "fields_of_study": []}
    return [{"id": i, **info.get(i, empty)} for i in sorted(ids)]


def _works_naming(lake_root: Path, ids: set[str], arxiv_ids: set[str]) -> list[dict]:
    """The works whose MAG id, OpenAlex number or arXiv id may be one of ``ids``, in lake order (partition, file,
    row): DuckDB joins the ids with the catalogue, so the process holds the works named, not the catalogue. A
    superset (an OpenAlex id's trailing digits); :func:`catalogue_rows` decides exactly as over every work."""
    if not ids or not lake.has_data(lake_root, "works"):
        return []
    glob = lake.table_glob(lake_root, "works")
    with bounded() as connection:
        connection.register("named", pa.table({"id": sorted(ids)}))
        connection.register("named_arxiv", pa.table({"id": sorted(arxiv_ids)}, schema=pa.schema([("id", pa.string())])))
        result = connection.sql(
            """SELECT mag_id, openalex_id, arxiv_id, year, title, fields, filename, file_row_number
            FROM read_parquet(?, filename = true, file_row_number = true)
            WHERE mag_id IN (SELECT id FROM named)
               OR regexp_extract(openalex_id, '(\\d+)$', 1) IN (SELECT id FROM named)
               OR arxiv_id IN (SELECT id FROM named_arxiv)""",
            params=[glob],
        ).to_arrow_table()
    rows = result.to_pylist()
    rows.sort(key=lambda r: (Path(r.pop("filename")), r.pop("file_row_number")))
    return rows


def export_contexts_and_catalogue(lake_root: Path, folder: Path, repairs: CsvRepairs) -> dict:
    """``contexts.csv`` and ``catalogue.jsonl`` into ``folder``, published together (a reader never sees one
    without the other or half a file), the contexts of repeated papers' dropped occurrences left out; returns counts
    for the asset's metadata."""
    with lake.replaced_folder(folder) as staging:
        dropped = dropped_occurrences(lake_root)
        contexts, ids = export_lake_contexts(lake_root, staging / CONTEXTS_FILE, repairs, dropped)
        works = catalogue_rows(lake_root, ids)
        with open(staging / CATALOGUE_FILE, "w", encoding="utf-8", newline="\n") as out:
            out.writelines(json.dumps(work, ensure_ascii=False) + "\n" for work in works)
    return {
        "contexts": contexts,
        "contexts_repaired": repairs.lines,
        "repeated_papers_left_out": len(dropped),
        "catalogue_works": len(works),
        "with_year": sum(work["year"] is not None for work in works),
        "with_fields": sum(bool(work["fields_of_study"]) for work in works),
    }


# (dump file, source id) of the occurrences not kept; a repeat within the file that holds the kept one is left to
# that file. The warehouse views (dbt_like_sql/arxiv/*.sql) write the same condition over lake.arxiv_duplicate_papers.
DROPPED_SQL = """
    SELECT DISTINCT dump_file, source_id FROM read_parquet(?)
    QUALIFY NOT bool_or(kept) OVER (PARTITION BY dump_file, paper_id)
"""


def dropped_occurrences(lake_root: Path) -> set[tuple[str, str]]:
    """(dump file key, source id) of every occurrence that is not kept."""
    if not lake.has_data(lake_root, "arxiv_duplicate_papers"):
        return set()
    with bounded() as connection:
        rows = connection.execute(DROPPED_SQL, [lake.table_glob(lake_root, "arxiv_duplicate_papers")]).fetchall()
    return {(key, paper) for key, paper in rows}


def is_dropped(dropped: set[tuple[str, str]], key: str, citing_paper_id: str | None) -> bool:
    """Whether a context of ``citing_paper_id`` (as the CSV names it) read from dump file ``key`` is a repeat."""
    if not dropped or not citing_paper_id:
        return False
    return (key, citing_paper_id) in dropped
