"""The citation-context export in unarXive's CSV format, with the catalogue of the works it names
(:mod:`citeworth_assets.lib.arxiv.csv_export` writes both).

CONTRACT (read by the citation-recommendation assets, which depend on the asset key ``arxiv_context_export``):
``<exports>/arxiv/contexts.csv`` (seven U+241E-separated fields, lists by U+241F, ``None`` for missing; a work with an
OpenAlex id and no MAG id carries the OpenAlex number in its MAG-id field) and
``<exports>/arxiv/catalogue.jsonl`` (``{"id", "year", "title", "fields_of_study"}``, ids as
:func:`citeworth_assets.lib.citrec.contexts.parse_context_line` reads them). Both are written into a
staging folder and published together, so a reader never sees one without the other or half a file.
"""

import dagster as dg

from citeworth_assets.defs.automation import follows_inputs, follows_some_sources
from citeworth_assets.defs.outputs import duplicates_result
from citeworth_assets.lib.arxiv.csv_export import CATALOGUE_FILE, CONTEXTS_FILE, export_contexts_and_catalogue
from citeworth_assets.lib.arxiv.schemas import DUPLICATES
from citeworth_assets.lib.context_csv import CsvRepairs
from citeworth_assets.lib.duplicates import write_duplicate_papers
from citeworth_assets.resources import PlatformResource

EXPORT_DATASET = "arxiv"


@dg.asset(
    deps=[dg.AssetDep("arxiv_papers", partition_mapping=dg.AllPartitionMapping())],
    group_name="arxiv",
    kinds={"parquet"},
    automation_condition=follows_inputs(),
    description="Every occurrence of an arXiv paper found in several unarXive dump files; the "
    "first by release, dump file and line is kept, and only its contexts are exported.",
)
def arxiv_duplicate_papers(context: dg.AssetExecutionContext, citeworth: PlatformResource) -> dg.MaterializeResult:
    return duplicates_result(context, write_duplicate_papers(citeworth.settings.lake, DUPLICATES), "dump file")


@dg.asset(
    deps=[
        "arxiv_duplicate_papers",
        dg.AssetDep("arxiv_contexts", partition_mapping=dg.AllPartitionMapping()),
        dg.AssetDep("arxiv_papers", partition_mapping=dg.AllPartitionMapping()),
        "works",
    ],
    group_name="arxiv",
    kinds={"csv"},
    automation_condition=follows_some_sources(dg.AssetSelection.assets("works")),  # follows new and replaced dump files
    description=(
        "Every dump file's citation contexts in unarXive's context CSV format (exports/arxiv/contexts.csv) and the "
        "catalogue of the works they name (exports/arxiv/catalogue.jsonl: id, year, title, fields_of_study), "
        "published together; read by the citation-recommendation assets."
    ),
)
def arxiv_context_export(context: dg.AssetExecutionContext, citeworth: PlatformResource) -> dg.MaterializeResult:
    settings = citeworth.settings
    settings.require_data()
    folder = settings.export_dir(EXPORT_DATASET)
    repairs = CsvRepairs()
    counts = export_contexts_and_catalogue(settings.lake, folder, repairs)
    if repairs.warning():
        context.log.warning(f"{folder / CONTEXTS_FILE}: {repairs.warning()}")
    return dg.MaterializeResult(
        metadata={
            **counts,
            "characters_replaced": dg.MetadataValue.json(dict(sorted(repairs.characters.items()))),
            "contexts_csv": str(folder / CONTEXTS_FILE),
            "catalogue_jsonl": str(folder / CATALOGUE_FILE),
        }
    )
