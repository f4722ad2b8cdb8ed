"""Reference resolution against the works catalogue and citation contexts, per unarXive dump file."""

from typing import Literal

import dagster as dg

from citeworth_assets.defs.arxiv.ingest import arxiv_ingest
from citeworth_assets.defs.arxiv.partitions import arxiv_dump_files
from citeworth_assets.defs.automation import follows_inputs
from citeworth_assets.lib import lake
from citeworth_assets.lib.arxiv.catalogue_lookup import LakeCatalogue, resolve_in_lake
from citeworth_assets.lib.arxiv.context_windows import PRESETS, PUBLISHED_SETTINGS, ContextWindow
from citeworth_assets.lib.arxiv.dump_file_contexts import lake_context_rows, resolver_linked_rows
from citeworth_assets.lib.arxiv.dump_files import converted_root, find_dump_file, is_converted
from citeworth_assets.lib.arxiv.resolution import agreement, resolution_report, resolution_schema
from citeworth_assets.lib.arxiv.schemas import DUMP_FILE_DIMENSION as DIMENSION
from citeworth_assets.lib.arxiv.schemas import context_schema
from citeworth_assets.lib.read_issues import IssueLog
from citeworth_assets.resources import PlatformResource

LINK_COLUMNS = ["ref_id", "linked_mag_id", "linked_openalex_id"]


@dg.asset(
    partitions_def=arxiv_dump_files,
    group_name="arxiv",
    kinds={"parquet"},
    deps=["arxiv_references", "works"],
    automation_condition=follows_inputs(),  # every dump file is resolved again when the catalogue changes
    description=(
        "Every bibliography item of the dump file resolved against the works catalogue (Saier 2019 §4.2.4), "
        "joined in DuckDB against the lake's works (the catalogue never enters the process): arXiv id "
        "or DOI through the catalogue, else catalogue titles in the string, longest first, accepted on an author "
        "surname, ties by citation count; resolved_by or the failure reason per item. Metadata: shares by route, "
        "failures, and agreement with the links the input ships."
    ),
)
def arxiv_resolutions(context: dg.AssetExecutionContext, citeworth: PlatformResource) -> dg.MaterializeResult:
    settings, key = citeworth.settings, context.partition_key
    references = lake.iter_partition_rows(settings.lake, "arxiv_references", key, dimension=DIMENSION)
    lookup = LakeCatalogue(settings.lake, settings.duckdb)
    try:
        rows = resolve_in_lake(references, lookup)
        lake.write_partition(settings.lake, "arxiv_resolutions", resolution_schema(), rows, key, DIMENSION)
        catalogue_works = lookup.count_works()
    finally:
        lookup.close()
    resolutions = list(lake.iter_partition_rows(settings.lake, "arxiv_resolutions", key, dimension=DIMENSION))
    report = resolution_report(resolutions)
    links = lake.iter_partition_rows(settings.lake, "arxiv_references", key, LINK_COLUMNS, DIMENSION)
    compared = agreement(resolutions, links)
    return dg.MaterializeResult(
        metadata={
            "references": report["references"],
            "resolved": report["resolved"],
            "resolved_share": report["resolved_share"],
            "by_route": dg.MetadataValue.json(report["by_route"]),
            "failures": dg.MetadataValue.json(report["failures"]),
            "catalogue_works": catalogue_works,
            "agreement_with_shipped_links": dg.MetadataValue.json(compared),
        }
    )


class ContextConfig(dg.Config):
    """The context window (Saier 2019 §4.2.5). Defaults: the published script's (the citing sentence and one on each
    side). ``published_labels`` keeps the published loop's labelling of contexts after a bibitem whose citing paper
    has no text (rule set unarxive_2020); False gives each context its own cited MAG id. ``link_source``: the
    published candidates (items the input ships a MAG/OpenAlex link for), or every item with a MAG id shipped or
    found by the resolver (contexts in text order; ``published_labels`` does not apply)."""

    unit: Literal["sentences", "words"] = PUBLISHED_SETTINGS.unit
    before: int = PUBLISHED_SETTINGS.before
    after: int = PUBLISHED_SETTINGS.after
    published_labels: bool = True
    link_source: Literal["shipped", "shipped_or_resolver"] = "shipped"
    # sentence splitting: NLTK's trained English Punkt as unarXive's published extraction used it, or "untrained"
    tokenizer: Literal["unarxive_published", "untrained"] = PUBLISHED_SETTINGS.tokenizer
    # a named preset replaces unit/before/after/tokenizer: unarxive_published = how unarXive's published
    # citation_contexts.csv was made (the citing sentence alone), unarxive_script = the script's defaults
    preset: str = ""

    def settings(self) -> ContextWindow:
        if self.preset:
            if self.preset not in PRESETS:
                raise dg.Failure(f"context preset {self.preset!r} is unknown; presets: {', '.join(PRESETS)}")
            return PRESETS[self.preset]
        if self.before < 0 or self.after < 0:
            raise dg.Failure(f"context window before={self.before}, after={self.after}: both must be 0 or more")
        return ContextWindow(self.unit, self.before, self.after, self.tokenizer)


@dg.asset(
    partitions_def=arxiv_dump_files,
    group_name="arxiv",
    kinds={"parquet"},
    deps=["arxiv_papers", "arxiv_resolutions"],
    automation_condition=follows_inputs(),  # follows ingestion and resolution of each dump file
    description=(
        "Citation contexts (Saier 2019 §4.2.5) of the dump file, computed from the lake's paragraphs and "
        "references (2020: the published candidates and order from refs.db, texts rebuilt from the paragraphs): "
        "for each marker of a bibliography item with a cited "
        "MAG/OpenAlex link (shipped, as published; or, configured, found by the resolver), the window around it "
        "with the target as MAINCIT and other markers as CIT, and the "
        "adjacent citations (same group or at most 5 characters apart) by id; in the published order."
    ),
)
def arxiv_contexts(
    context: dg.AssetExecutionContext, config: ContextConfig, citeworth: PlatformResource
) -> dg.MaterializeResult:
    settings, key = citeworth.settings, context.partition_key
    dumps = settings.require_dumps()
    dump = find_dump_file(dumps, key, converted_root(settings.data))
    window = config.settings()
    log = IssueLog()
    if config.link_source == "shipped" and not is_converted(dump):  # converted LaTeX sources ship no links
        rows = lake_context_rows(settings.lake, dump, key, window, config.published_labels, log, dumps)
    else:
        rows = resolver_linked_rows(settings.lake, dump, key, window, log, dumps)
    rows = lake.write_partition(settings.lake, "arxiv_contexts", context_schema(), rows, key, DIMENSION)
    return dg.MaterializeResult(
        metadata={
            "contexts": rows,
            "window": f"{window.unit}: {window.before} before, {window.after} after",
            "published_labels": config.published_labels,
            "link_source": config.link_source,
            # bibitems of papers without a text file (refs.db lists more papers than a dump part holds), bad bytes
            "context_issues_by_kind": dg.MetadataValue.json(dict(sorted(log.counts.items()))),
        }
    )


file_assets = [arxiv_ingest, arxiv_resolutions, arxiv_contexts]
