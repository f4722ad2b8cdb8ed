"""Sensors that watch the dump root, one per unarXive release: a partition and a run per new or replaced dump file."""

import dagster as dg

from citeworth_assets.defs.arxiv.partitions import arxiv_dump_files
from citeworth_assets.defs.automation import DumpSource
from citeworth_assets.defs.sensing import dump_partition_requests, dump_root_sensor
from citeworth_assets.lib.arxiv.dump_files import (
    UNARXIVE_2020,
    UNARXIVE_2022,
    converted_root,
    discover_dump_files,
)
from citeworth_assets.resources import PlatformResource

arxiv_file_job = dg.define_asset_job(
    "arxiv_file_job",
    selection=dg.AssetSelection.assets(
        "arxiv_papers", "arxiv_paragraphs", "arxiv_references", "arxiv_resolutions", "arxiv_contexts"
    ),
    description="Ingest one unarXive dump file (papers, paragraphs, bibliography items), resolve its references "
    "against the works catalogue and extract its citation contexts.",
)
# What an ingestion of a dump file writes, the versioned one first (the file's resolution follows the catalogue).
INGESTED = [dg.AssetKey("arxiv_papers"), dg.AssetKey("arxiv_paragraphs"), dg.AssetKey("arxiv_references")]
arxiv_export_job = dg.define_asset_job(
    "arxiv_export_job",
    selection=dg.AssetSelection.assets("arxiv_duplicate_papers", "arxiv_context_export"),
    description="List papers found in several dump files, then write every dump file's citation contexts (each "
    "paper's once) and the catalogue of their works to exports/arxiv/.",
)


def dump_file_sensor(release: str) -> dg.SensorDefinition:
    """The sensor of one unarXive release folder (``<dumps>/<release>/``)."""

    @dump_root_sensor(
        arxiv_file_job,
        30,
        name=f"{release.replace('-', '_')}_sensor",
        description=f"Adds a partition of arxiv_dump_files and requests a run for every new or replaced, settled dump "
        f"file under <dumps>/{release}/ that the instance has not ingested from the same bytes (size and "
        "modification time: the data version of arxiv_papers).",
    )
    def sensor(context: dg.SensorEvaluationContext, citeworth: PlatformResource, dumps):
        dump_files = discover_dump_files(dumps, (release,), settle_seconds=citeworth.shard_settle_seconds)
        nothing_new = f"no new or changed settled dump files under {dumps / release}"
        return dump_partition_requests(
            context, arxiv_dump_files, dump_files, nothing_new, arxiv_file_job.name, INGESTED
        )

    return sensor


arxiv_sensors = [dump_file_sensor(UNARXIVE_2020), dump_file_sensor(UNARXIVE_2022)]


def _pending_files(instance: dg.DagsterInstance, settings, force: bool) -> tuple[list[str], list[str], list[str]]:
    """Every dump file under the dump root, each run again (its resolution depends on the catalogue of this build)."""
    # LaTeX sources converted by an earlier build; this build's conversions are ingested by the assets' condition
    converted = converted_root(settings.data)
    keys = [dump.key for dump in discover_dump_files(settings.require_dumps(), converted=converted)]
    return keys, keys, []


def _file_progress(value) -> str:
    return (
        f"{value('arxiv_papers', 'papers')} papers, {value('arxiv_paragraphs', 'paragraphs')} paragraphs, "
        f"{value('arxiv_references', 'references')} references "
        f"({value('arxiv_resolutions', 'resolved_share')} resolved), {value('arxiv_contexts', 'contexts')} contexts, "
        f"{value('arxiv_papers', 'read_issues')} read issues"
    )


dump_file_source = DumpSource(
    "dump files", arxiv_file_job.name, _pending_files, _file_progress, arxiv_dump_files, rank=3
)
