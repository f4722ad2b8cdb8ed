"""Reference resolution against the works catalogue and citation contexts, per unarXive dump file."""

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Literal

import dagster as dg

from citeworth_assets.defs.arxiv.export import table_rows
from citeworth_assets.defs.arxiv.ingest import arxiv_ingest
from citeworth_assets.defs.arxiv.issues import DIMENSION
from citeworth_assets.defs.arxiv.partitions import arxiv_dump_files
from citeworth_assets.lib import lake
from citeworth_assets.lib.arxiv import unarxive2020, unarxive2022
from citeworth_assets.lib.arxiv.context_export import contexts_2020, contexts_2022
from citeworth_assets.lib.arxiv.contexts import PRESETS, PUBLISHED_SETTINGS, ContextSettings
from citeworth_assets.lib.arxiv.contexts import UNARXIVE_2020 as UNARXIVE_2020_RULES
from citeworth_assets.lib.arxiv.contexts import UNARXIVE_2022 as UNARXIVE_2022_RULES
from citeworth_assets.lib.arxiv.dump_files import UNARXIVE_2020, DumpFile, find_dump_file
from citeworth_assets.lib.arxiv.linked_contexts import linked_contexts, reference_links, short_openalex_id
from citeworth_assets.lib.arxiv.resolution import (
    RESOLUTION_SCHEMA,
    Catalogue,
    agreement,
    resolution_report,
    resolve_all,
)
from citeworth_assets.lib.arxiv.schemas import CONTEXT_SCHEMA
from citeworth_assets.lib.jsonl import IssueLog
from citeworth_assets.resources import CiteworthSettings

LINK_COLUMNS = ["ref_id", "linked_mag_id", "linked_openalex_id"]


def load_catalogue(lake_root: Path) -> Catalogue:
    """The works catalogue and arXiv metadata titles from the lake (empty before the catalogue is built)."""
    catalogue = Catalogue()
    columns = ["work_id", "mag_id", "openalex_id", "normalised_title", "authors", "citation_count", "doi", "arxiv_id"]
    for work in table_rows(lake_root, "works", columns):
        catalogue.add(work)
    catalogue.add_arxiv_titles(
        (r["arxiv_id"], r["title"]) for r in table_rows(lake_root, "arxiv_titles", ["arxiv_id", "title"])
    )
    return catalogue


@dg.asset(
    partitions_def=arxiv_dump_files,
    group_name="arxiv",
    kinds={"parquet"},
    deps=["arxiv_references", "works"],
    automation_condition=dg.AutomationCondition.eager(),  # every dump file is resolved again when the catalogue changes
    description=(
        "Every bibliography item of the dump file resolved against the works catalogue (seeds/004 §4.2.4): arXiv id "
        "or DOI through the catalogue, else catalogue titles in the string, longest first, accepted on an author "
        "surname, ties by citation count; resolved_by or the failure reason per item. Metadata: shares by route, "
        "failures, and agreement with the links the input ships."
    ),
)
def arxiv_resolutions(context: dg.AssetExecutionContext, citeworth: CiteworthSettings) -> dg.MaterializeResult:
    settings, key = citeworth.settings, context.partition_key
    catalogue = load_catalogue(settings.lake)
    references = lake.iter_partition_rows(settings.lake, "arxiv_references", key, dimension=DIMENSION)
    lake.write_partition(
        settings.lake, "arxiv_resolutions", RESOLUTION_SCHEMA, resolve_all(references, catalogue), key, DIMENSION
    )
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
            "catalogue_works": sum(len(works) for works in catalogue.by_title.values()),
            "agreement_with_shipped_links": dg.MetadataValue.json(compared),
        }
    )


class ContextConfig(dg.Config):
    """The context window (seeds/004 §4.2.5). Defaults: the published script's (the citing sentence and one on each
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

    def settings(self) -> ContextSettings:
        if self.preset:
            if self.preset not in PRESETS:
                raise dg.Failure(f"context preset {self.preset!r} is unknown; presets: {', '.join(PRESETS)}")
            return PRESETS[self.preset]
        if self.before < 0 or self.after < 0:
            raise dg.Failure(f"context window before={self.before}, after={self.after}: both must be 0 or more")
        return ContextSettings(self.unit, self.before, self.after, self.tokenizer)


@contextmanager
def paper_folder(dump: DumpFile, root: Path | None = None) -> Iterator[Path]:
    """The folder of a 2020 dump's text files (a tarball's are unpacked into a temporary folder, with refs.db);
    nothing that leads out of ``root`` is unpacked."""
    if dump.path.is_dir():
        yield dump.path
        return
    with tempfile.TemporaryDirectory(prefix="unarxive_") as folder:
        log = IssueLog()  # the ingestion step counted these already
        for file in unarxive2020.iter_paper_files(dump.path, log, root):
            (Path(folder) / file.name).write_bytes(file.data)
        with unarxive2020.refs_db_path(dump.path, None, log, root) as refs:
            if refs is not None:
                (Path(folder) / "refs.db").write_bytes(refs.read_bytes())
        yield Path(folder)


def context_rows(
    dump: DumpFile, settings: ContextSettings, published_labels: bool, log: IssueLog, root: Path | None = None
) -> Iterator[dict]:
    """CONTEXT_SCHEMA rows of one dump file: markers of bibliography items with a shipped link, as published.
    No file of a folder that leads out of it and the dump root ``root`` is read."""
    if dump.release == UNARXIVE_2020:
        with paper_folder(dump, root) as folder:
            refs = folder / "refs.db"
            if not refs.is_file() or unarxive2020.followed_out(refs, folder, root, log):
                return
            contexts = contexts_2020(folder, refs, settings, log, published_labels=published_labels, root=root)
            for row in contexts:
                yield row.as_row()
        return
    for paper in unarxive2022.iter_papers(dump.path, log):
        for row in contexts_2022(paper, settings, log):
            yield row.as_row()


def resolver_linked_rows(
    lake_root: Path, dump: DumpFile, key: str, settings: ContextSettings, log: IssueLog, dumps: Path | None = None
) -> Iterator[dict]:
    """CONTEXT_SCHEMA rows for every item linked by the input (a shipped OpenAlex id gets its MAG id from the
    catalogue) or by the resolver (lib/arxiv/linked_contexts)."""
    columns = [
        "ref_id",
        "citing_paper_id",
        "citing_mag_id",
        "linked_mag_id",
        "linked_openalex_id",
        "linked_arxiv_id",
        "linked_doi",
        "arxiv_ids",
    ]
    references = list(lake.iter_partition_rows(lake_root, "arxiv_references", key, columns, DIMENSION))
    resolutions = lake.iter_partition_rows(
        lake_root, "arxiv_resolutions", key, ["ref_id", "citing_paper_id", "work_id", "mag_id"], DIMENSION
    )
    shipped_openalex = {short_openalex_id(r["linked_openalex_id"]) for r in references if r["linked_openalex_id"]}
    openalex_mag = {
        w["openalex_id"]: w["mag_id"]
        for w in table_rows(lake_root, "works", ["openalex_id", "mag_id"])
        if w["openalex_id"] in shipped_openalex and w["mag_id"]
    }
    links = reference_links(references, resolutions, openalex_mag=openalex_mag)
    citing_mag = {r["citing_paper_id"]: r["citing_mag_id"] for r in references if r["citing_mag_id"]}
    if dump.release == UNARXIVE_2020:
        papers = unarxive2020.iter_papers(dump.path, log, root=dumps)
        texts = ((p.arxiv_id, citing_mag.get(p.arxiv_id), p.text) for p in papers)
        rules = UNARXIVE_2020_RULES
    else:
        texts = (
            (paragraph["paper_id"], None, paragraph["text"])
            for paper in unarxive2022.iter_papers(dump.path, log)
            for paragraph in paper.paragraphs
        )
        rules = UNARXIVE_2022_RULES
    for row in linked_contexts(texts, links, settings, rules):
        yield row.as_row()


@dg.asset(
    partitions_def=arxiv_dump_files,
    group_name="arxiv",
    kinds={"parquet"},
    deps=["arxiv_papers", "arxiv_resolutions"],
    description=(
        "Citation contexts (seeds/004 §4.2.5) of the dump file: for each marker of a bibliography item with a cited "
        "MAG/OpenAlex link (shipped, as published; or, configured, found by the resolver), the window around it with the target as MAINCIT and other markers as CIT, and the "
        "adjacent citations (same group or at most 5 characters apart) by id; in the published order."
    ),
)
def arxiv_contexts(
    context: dg.AssetExecutionContext, config: ContextConfig, citeworth: CiteworthSettings
) -> dg.MaterializeResult:
    settings, key = citeworth.settings, context.partition_key
    dumps = settings.require_dumps()
    dump = find_dump_file(dumps, key)
    window = config.settings()
    log = IssueLog()
    if config.link_source == "shipped":
        rows = context_rows(dump, window, config.published_labels, log, dumps)
    else:
        rows = resolver_linked_rows(settings.lake, dump, key, window, log, dumps)
    rows = lake.write_partition(settings.lake, "arxiv_contexts", CONTEXT_SCHEMA, rows, key, DIMENSION)
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
