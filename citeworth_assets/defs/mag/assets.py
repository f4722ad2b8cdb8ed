"""The works catalogue (Saier 2019 ch. 4): MAG papers and OpenAlex works in one table, their citation edges, the
MAG's level-0 fields of study (the keys of the static field partitions) and arXiv metadata titles."""

from pathlib import Path

import dagster as dg

from citeworth_assets.defs.outputs import parquet_specs
from citeworth_assets.defs.read_issues import read_issue_metadata
from citeworth_assets.defs.sensing import signature_version
from citeworth_assets.lib import lake
from citeworth_assets.lib.arxiv.dump_files import MAG_DIR, OPENALEX_DIR, arxiv_metadata_files, catalogue_signature
from citeworth_assets.lib.fields import FIELD_BY_KEY, field_key
from citeworth_assets.lib.identifiers import read_arxiv_metadata_titles
from citeworth_assets.lib.mag.catalogue import mag_level0_fields
from citeworth_assets.lib.mag.lake_catalogue import build_works_apart, field_counts
from citeworth_assets.lib.mag.openalex_snapshot import SnapshotError
from citeworth_assets.lib.mag.tables import arxiv_title_schema, field_of_study_schema
from citeworth_assets.lib.read_issues import IssueLog
from citeworth_assets.resources import PlatformResource

CATALOGUE_ISSUES = "catalogue_read_issues"


def _field_rows(dumps: Path, counts: dict) -> list[dict]:
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
    for path in arxiv_metadata_files(dumps, log):
        for arxiv_id, title in read_arxiv_metadata_titles(path, log):
            yield {"arxiv_id": arxiv_id, "title": title}


@dg.multi_asset(
    specs=parquet_specs(
        "mag",
        {
            "works": (
                "The works catalogue: every MAG paper (Papers + authors in order + level-0 fields) and every "
                "OpenAlex work in one row shape (work id, normalised title, year, authors, citation count, DOI, "
                "arXiv id, fields); arXiv metadata titles beside it (table arxiv_titles). Built out of core in "
                "DuckDB in a process of its own (memory limit CITEWORTH_DUCKDB_MEMORY); a work listed twice keeps "
                "its newest version (the later Papers.txt line, the later OpenAlex updated_date folder), the others "
                "are listed in work_duplicates. OpenAlex snapshots in the 2026 layout (the Parquet copy read where "
                "present, manifest counts checked) or the older one. Read issues in catalogue_read_issues."
            ),
            "work_references": "Citation edges between works: MAG PaperReferences and OpenAlex referenced_works.",
            "mag_fields_of_study": (
                "Level-0 fields of study (MAG FieldsOfStudy, OpenAlex level-0 concepts, else OpenAlex topics mapped "
                "to MAG fields: docs/arxiv.md) with their static field partition key and the number of catalogue "
                "works in each."
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
def mag_catalogue(context: dg.AssetExecutionContext, citeworth: PlatformResource):
    settings = citeworth.settings
    dumps = settings.require_dumps()
    log = IssueLog()
    mag, openalex = dumps / MAG_DIR, dumps / OPENALEX_DIR
    try:
        counts = build_works_apart(
            settings.lake, mag if mag.is_dir() else None, openalex if openalex.is_dir() else None, log, settings.duckdb
        )
    except SnapshotError as error:  # an OpenAlex folder without works parts: never an empty catalogue
        raise dg.Failure(str(error)) from None
    fields = field_counts(settings.lake, settings.duckdb)
    titles = lake.write_partition(settings.lake, "arxiv_titles", arxiv_title_schema(), _arxiv_titles(dumps, log))
    field_rows = _field_rows(dumps, fields)
    lake.write_partition(settings.lake, "mag_fields_of_study", field_of_study_schema(), field_rows)
    if log.total:
        context.log.warning(f"catalogue under {dumps}: {log.total} read issues {log.counts}")
    issues = read_issue_metadata(settings.lake, CATALOGUE_ISSUES, log, "catalogue", dumps=dumps)
    signature = catalogue_signature(dumps)  # the record of what was built: see defs/sensing.py
    yield dg.MaterializeResult(
        asset_key="works",
        data_version=dg.DataVersion(signature_version(signature or [])),
        metadata={
            "works": counts["works"],
            "duplicate_versions": counts["duplicates"],
            "arxiv_titles": titles,
            **issues,
        },
    )
    yield dg.MaterializeResult(asset_key="work_references", metadata={"edges": counts["edges"]})
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
