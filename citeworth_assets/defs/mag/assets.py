"""The works catalogue (Saier 2019 ch. 4): MAG papers and OpenAlex works in one table, their citation edges, the
MAG's level-0 fields of study (the keys of the static field partitions) and arXiv metadata titles."""

from collections import Counter
from pathlib import Path

import dagster as dg

from citeworth_assets.defs.arxiv.issues import issue_metadata
from citeworth_assets.defs.outputs import parquet_specs
from citeworth_assets.lib import lake
from citeworth_assets.lib.arxiv.dump_files import ARXIV_METADATA_DIR, MAG_DIR, METADATA_FILE, OPENALEX_DIR
from citeworth_assets.lib.fields import FIELD_BY_KEY, field_key
from citeworth_assets.lib.identifiers import read_arxiv_metadata_titles
from citeworth_assets.lib.jsonl import IssueLog
from citeworth_assets.lib.mag.catalogue import mag_level0_fields, mag_work_references, mag_works, openalex_works
from citeworth_assets.lib.mag.schemas import WORK_REFERENCE_SCHEMA, WORK_SCHEMA
from citeworth_assets.lib.mag.tables import ARXIV_TITLE_SCHEMA, FIELD_OF_STUDY_SCHEMA
from citeworth_assets.resources import CiteworthSettings

CATALOGUE_ISSUES = "catalogue_read_issues"


def _works(dumps: Path, log: IssueLog, edges: lake.PartitionWriter, fields: Counter):
    """MAG works, then OpenAlex works (whose citation edges go straight to ``edges``), counting fields."""
    sources = []
    if (dumps / MAG_DIR).is_dir():
        sources.append(mag_works(dumps / MAG_DIR, log))
    if (dumps / OPENALEX_DIR).is_dir():
        pending: list[dict] = []
        sources.append(_draining(openalex_works(dumps / OPENALEX_DIR, log, pending), pending, edges))
    for source in sources:
        for work in source:
            fields.update(work["fields"])
            yield work


def _draining(works, pending: list, edges: lake.PartitionWriter):
    """Pass works through, moving the edges each one added to ``pending`` into the edge table at once."""
    for work in works:
        edges.write_all(pending)
        pending.clear()
        yield work


def _field_rows(dumps: Path, counts: Counter) -> list[dict]:
    # FieldsOfStudy.txt is read a second time here; its issues were counted by the works reader already.
    level0 = mag_level0_fields(dumps / MAG_DIR, IssueLog()) if (dumps / MAG_DIR).is_dir() else {}
    ids = {name: field_id for field_id, name in level0.items()}
    return [
        {
            "field_of_study_id": ids.get(name),
            "display_name": name,
            "field_key": field_key(name),
            "is_partition": field_key(name) in FIELD_BY_KEY,
            "works": counts.get(name, 0),
        }
        for name in sorted(set(ids) | set(counts))
    ]


def _arxiv_titles(dumps: Path, log: IssueLog):
    folder = dumps / ARXIV_METADATA_DIR
    for path in sorted(folder.iterdir()) if folder.is_dir() else []:
        if METADATA_FILE.search(path.name):
            for arxiv_id, title in read_arxiv_metadata_titles(path, log):
                yield {"arxiv_id": arxiv_id, "title": title}


@dg.multi_asset(
    specs=parquet_specs(
        "mag",
        {
            "works": (
                "The works catalogue: every MAG paper (Papers + authors in order + level-0 fields) and every "
                "OpenAlex work in one row shape (work id, normalised title, year, authors, citation count, DOI, "
                "arXiv id, fields); "
                "arXiv metadata titles beside it (table arxiv_titles). Read issues in catalogue_read_issues."
            ),
            "work_references": "Citation edges between works: MAG PaperReferences and OpenAlex referenced_works.",
            "mag_fields_of_study": (
                "Level-0 fields of study (MAG FieldsOfStudy, OpenAlex level-0 concepts) with their static field "
                "partition key and the number of catalogue works in each."
            ),
        },
    ),
    check_specs=[
        dg.AssetCheckSpec(
            "every_field_is_a_partition",
            asset="mag_fields_of_study",
            description="Every level-0 field of the catalogue keys one of the static field partitions.",
        )
    ],
)
def mag_catalogue(context: dg.AssetExecutionContext, citeworth: CiteworthSettings):
    settings = citeworth.settings
    dumps = settings.require_dumps()
    log, fields = IssueLog(), Counter()
    with (
        lake.PartitionWriter(settings.lake, "work_references", WORK_REFERENCE_SCHEMA) as edges,
        lake.PartitionWriter(settings.lake, "works", WORK_SCHEMA) as works,
    ):
        works.write_all(_works(dumps, log, edges, fields))
        if (dumps / MAG_DIR).is_dir():
            edges.write_all(mag_work_references(dumps / MAG_DIR, log))
    titles = lake.write_partition(settings.lake, "arxiv_titles", ARXIV_TITLE_SCHEMA, _arxiv_titles(dumps, log))
    field_rows = _field_rows(dumps, fields)
    lake.write_partition(settings.lake, "mag_fields_of_study", FIELD_OF_STUDY_SCHEMA, field_rows)
    if log.total:
        context.log.warning(f"catalogue under {dumps}: {log.total} read issues {log.counts}")
    issues = issue_metadata(settings.lake, CATALOGUE_ISSUES, "catalogue", None, log, dumps)
    yield dg.MaterializeResult(
        asset_key="works", metadata={"works": works.rows_written, "arxiv_titles": titles, **issues}
    )
    yield dg.MaterializeResult(asset_key="work_references", metadata={"edges": edges.rows_written})
    unknown = [row["display_name"] for row in field_rows if not row["is_partition"]]
    yield dg.MaterializeResult(
        asset_key="mag_fields_of_study",
        metadata={"fields": len(field_rows), "works_per_field": dg.MetadataValue.json(dict(sorted(fields.items())))},
    )
    yield dg.AssetCheckResult(
        check_name="every_field_is_a_partition",
        asset_key="mag_fields_of_study",
        passed=not unknown,
        metadata={"fields_without_partition": dg.MetadataValue.json(unknown)},
    )


catalogue_assets = [mag_catalogue]
