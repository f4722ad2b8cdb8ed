"""The citation-context export in unarXive's CSV format, with the catalogue of the works it names.

CONTRACT (read by the citation-recommendation assets, which depend on the asset key ``arxiv_context_export``):
``<exports>/arxiv/contexts.csv`` (seven U+241E-separated fields, lists by U+241F, ``None`` for missing; a work with an
OpenAlex id and no MAG id carries the OpenAlex number in its MAG-id field) and
``<exports>/arxiv/catalogue.jsonl`` (``{"id", "year", "title", "fields_of_study"}``, ids as
:func:`citeworth_assets.lib.citrec.contexts.parse_context_line` reads them). Both are written into a
staging folder and published together, so a reader never sees one without the other or half a file.
"""

import json
from collections.abc import Iterator
from pathlib import Path

import dagster as dg
import pyarrow.parquet as pq

from citeworth_assets.defs.arxiv.issues import DIMENSION
from citeworth_assets.lib import lake
from citeworth_assets.lib.arxiv.context_export import CsvRepairs, context_csv_line, mag_or_openalex
from citeworth_assets.lib.arxiv.duplicates import dropped_occurrences, is_dropped, write_duplicate_papers
from citeworth_assets.lib.arxiv.identifiers import normalise_arxiv_id
from citeworth_assets.lib.citrec.contexts import parse_context_line
from citeworth_assets.resources import CiteworthSettings

EXPORT_DATASET = "arxiv"
CONTEXTS_FILE, CATALOGUE_FILE = "contexts.csv", "catalogue.jsonl"


def csv_line(row: dict, repairs: CsvRepairs) -> str:
    """One context row of the lake as a line of unarXive's CSV (``str`` of each value, as published)."""
    mags, openalex = row["adjacent_mag_ids"] or [], row.get("adjacent_openalex_ids") or []
    at = lambda values, i: values[i] if i < len(values) else None
    return context_csv_line(
        mag_or_openalex(row["cited_mag_id"], row.get("cited_openalex_id")),
        [mag_or_openalex(at(mags, i), at(openalex, i)) for i in range(max(len(mags), len(openalex)))],
        row["citing_mag_id"],
        row["cited_arxiv_id"],
        row["adjacent_arxiv_ids"],
        row["citing_paper_id"],
        row["text"],
        repairs,
    )


def _ids(line: str) -> list[str]:
    """The work ids a context line names, read back exactly as the citation-recommendation reader reads them."""
    try:
        context = parse_context_line(line)
    except ValueError:
        return []
    return [context.cited, context.citing, *context.adjacent]


def write_contexts(
    lake_root: Path, path: Path, repairs: CsvRepairs, dropped: set[tuple[str, str]] | None = None
) -> tuple[int, set[str]]:
    """Every partition's contexts (partitions by key, rows in their stored order) -> CSV; the ids named. Contexts
    of a paper's ``dropped`` occurrences (another dump file holds the kept one) are left out."""
    ids: set[str] = set()
    count = 0
    folder = lake_root / "arxiv_contexts"
    keys = sorted(p.name.split("=", 1)[1] for p in folder.glob(f"{DIMENSION}=*")) if folder.is_dir() else []
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        for key in keys:
            for row in lake.iter_partition_rows(lake_root, "arxiv_contexts", key, dimension=DIMENSION):
                if is_dropped(dropped or set(), key, row["citing_paper_id"]):
                    continue
                line = csv_line(row, repairs)
                out.write(line)
                ids.update(_ids(line))
                count += 1
    return count, ids


def table_rows(lake_root: Path, table: str, columns: list[str]) -> Iterator[dict]:
    """Rows of every partition of a lake table (partitions in key order), read batch by batch."""
    for folder in sorted(p for p in (lake_root / table).glob("*") if p.is_dir()):
        for path in sorted(folder.glob("*.parquet")):
            for batch in pq.ParquetFile(path).iter_batches(columns=columns, batch_size=5_000):
                yield from batch.to_pylist()


def catalogue_rows(lake_root: Path, ids: set[str]) -> list[dict]:
    """What the works catalogue and the arXiv papers say about each id (MAG id or OpenAlex number, ``arXiv:<id>``)."""
    arxiv = {normalise_arxiv_id(i.removeprefix("arXiv:")): i for i in ids if i.startswith("arXiv:")}
    info: dict[str, dict] = {}
    for work in table_rows(lake_root, "works", ["mag_id", "openalex_id", "arxiv_id", "year", "title", "fields"]):
        openalex_number = mag_or_openalex(None, work["openalex_id"])
        if work["mag_id"] in ids:
            found = work["mag_id"]
        else:
            found = openalex_number if openalex_number in ids else arxiv.get(work["arxiv_id"])
        if found and found not in info:
            info[found] = {"year": work["year"], "title": work["title"], "fields_of_study": work["fields"] or []}
    # titles and the discipline fallback of arXiv papers
    for paper in table_rows(lake_root, "arxiv_papers", ["paper_id", "mag_id", "title", "discipline"]):
        found = paper["mag_id"] if paper["mag_id"] in ids else arxiv.get(paper["paper_id"])
        if found:
            entry = info.setdefault(found, {"year": None, "title": None, "fields_of_study": []})
            entry["title"] = entry["title"] or paper["title"]
            entry["fields_of_study"] = entry["fields_of_study"] or (
                [paper["discipline"]] if paper["discipline"] else []
            )
    empty = {"year": None, "title": None, "fields_of_study": []}
    return [{"id": i, **info.get(i, empty)} for i in sorted(ids)]


@dg.asset(
    deps=[dg.AssetDep("arxiv_papers", partition_mapping=dg.AllPartitionMapping())],
    group_name="arxiv",
    kinds={"parquet"},
    automation_condition=dg.AutomationCondition.eager(),
    description="Every occurrence of an arXiv paper found in several unarXive dump files (or twice in one); the "
    "first by release, dump file and line is kept, and only its contexts are exported.",
)
def arxiv_duplicate_papers(context: dg.AssetExecutionContext, citeworth: CiteworthSettings) -> dg.MaterializeResult:
    rows = write_duplicate_papers(citeworth.settings.lake)
    if rows:
        context.log.warning(f"{rows} occurrences of papers found in several dump files; the first is kept")
    return dg.MaterializeResult(metadata={"duplicate_rows": rows})


@dg.asset(
    deps=[
        "arxiv_duplicate_papers",
        dg.AssetDep("arxiv_contexts", partition_mapping=dg.AllPartitionMapping()),
        dg.AssetDep("arxiv_papers", partition_mapping=dg.AllPartitionMapping()),
        "works",
    ],
    group_name="arxiv",
    kinds={"csv"},
    automation_condition=dg.AutomationCondition.eager(),  # follows new and replaced dump files
    description=(
        "Every dump file's citation contexts in unarXive's context CSV format (exports/arxiv/contexts.csv) and the "
        "catalogue of the works they name (exports/arxiv/catalogue.jsonl: id, year, title, fields_of_study), "
        "published together; read by the citation-recommendation assets."
    ),
)
def arxiv_context_export(context: dg.AssetExecutionContext, citeworth: CiteworthSettings) -> dg.MaterializeResult:
    settings = citeworth.settings
    settings.require_data()
    folder = settings.export_dir(EXPORT_DATASET)
    repairs = CsvRepairs()
    with lake.replaced_folder(folder) as staging:
        dropped = dropped_occurrences(settings.lake)
        contexts, ids = write_contexts(settings.lake, staging / CONTEXTS_FILE, repairs, dropped)
        works = catalogue_rows(settings.lake, ids)
        with open(staging / CATALOGUE_FILE, "w", encoding="utf-8", newline="\n") as out:
            out.writelines(json.dumps(work, ensure_ascii=False) + "\n" for work in works)
    if repairs.warning():
        context.log.warning(f"{folder / CONTEXTS_FILE}: {repairs.warning()}")
    return dg.MaterializeResult(
        metadata={
            "contexts": contexts,
            "contexts_repaired": repairs.lines,
            "repeated_papers_left_out": len(dropped),
            "characters_replaced": dg.MetadataValue.json(dict(sorted(repairs.characters.items()))),
            "catalogue_works": len(works),
            "with_year": sum(work["year"] is not None for work in works),
            "with_fields": sum(bool(work["fields_of_study"]) for work in works),
            "contexts_csv": str(folder / CONTEXTS_FILE),
            "catalogue_jsonl": str(folder / CATALOGUE_FILE),
        }
    )
