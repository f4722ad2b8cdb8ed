"""Sensors that watch the dump root, one per unarXive release: a partition and a run per new or replaced dump file."""

import dagster as dg

from citeworth_assets.defs.arxiv.partitions import arxiv_dump_files
from citeworth_assets.defs.sensing import dump_partition_requests, dump_root_sensor
from citeworth_assets.lib.arxiv.dump_files import (
    UNARXIVE_2020,
    UNARXIVE_2022,
    discover_dump_files,
)
from citeworth_assets.resources import CiteworthSettings

arxiv_file_job = dg.define_asset_job(
    "arxiv_file_job",
    selection=dg.AssetSelection.assets(
        "arxiv_papers", "arxiv_paragraphs", "arxiv_references", "arxiv_resolutions", "arxiv_contexts"
    ),
    description="Ingest one unarXive dump file (papers, paragraphs, bibliography items), resolve its references "
    "against the works catalogue and extract its citation contexts.",
)
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
        f"file under <dumps>/{release}/ (the cursor keeps each file's size and modification time).",
    )
    def sensor(context: dg.SensorEvaluationContext, citeworth: CiteworthSettings, dumps):
        dump_files = discover_dump_files(dumps, (release,), settle_seconds=citeworth.shard_settle_seconds)
        nothing_new = f"no new or changed settled dump files under {dumps / release}"
        return dump_partition_requests(context, arxiv_dump_files, dump_files, nothing_new)

    return sensor


arxiv_sensors = [dump_file_sensor(UNARXIVE_2020), dump_file_sensor(UNARXIVE_2022)]
