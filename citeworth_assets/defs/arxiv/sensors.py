"""Sensors that watch the dump root, one per unarXive release: a partition and a run per new or replaced dump file."""

import json

import dagster as dg

from citeworth_assets.defs.arxiv.partitions import arxiv_dump_files
from citeworth_assets.defs.sensing import dump_root_sensor
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
        seen: dict = json.loads(context.cursor) if context.cursor else {}
        known = set(context.instance.get_dynamic_partitions(arxiv_dump_files.name))
        new_keys, run_requests = [], []
        for dump in discover_dump_files(dumps, (release,), settle_seconds=citeworth.shard_settle_seconds):
            signature = dump.signature()
            if seen.get(dump.key) == signature:
                continue
            seen[dump.key] = signature
            if dump.key not in known:
                new_keys.append(dump.key)
            run_requests.append(
                dg.RunRequest(partition_key=dump.key, run_key=f"{dump.key}:{':'.join(map(str, signature))}")
            )
        if not run_requests:
            return dg.SkipReason(f"no new or changed settled dump files under {dumps / release}")
        return dg.SensorResult(
            run_requests=run_requests,
            dynamic_partitions_requests=[arxiv_dump_files.build_add_request(new_keys)] if new_keys else [],
            cursor=json.dumps(seen, sort_keys=True),
        )

    return sensor


arxiv_sensors = [dump_file_sensor(UNARXIVE_2020), dump_file_sensor(UNARXIVE_2022)]
