"""The catalogue sensor: a run when a MAG, OpenAlex or arXiv-metadata file appears or changes."""

import json

import dagster as dg

from citeworth_assets.defs.automation import DumpSource
from citeworth_assets.defs.sensing import built_versions, dump_root_sensor, signature_version
from citeworth_assets.lib.arxiv.dump_files import OPENALEX_DIR, catalogue_files, catalogue_signature
from citeworth_assets.resources import PlatformResource

catalogue_job = dg.define_asset_job(
    "catalogue_job",
    selection=dg.AssetSelection.assets("works", "work_references", "mag_fields_of_study"),
    description="Read the MAG dump and the OpenAlex snapshot into the works catalogue, its edges and fields of study.",
)


CATALOGUE = [dg.AssetKey("works"), dg.AssetKey("work_references"), dg.AssetKey("mag_fields_of_study")]


@dump_root_sensor(
    catalogue_job,
    60,
    "Requests a catalogue run when the files under <dumps>/mag/, <dumps>/openalex/ (works parts, any layout) or "
    "<dumps>/arxiv-metadata/ change and have settled, unless the instance has built the catalogue from the same "
    "files (names, sizes, modification times: the data version of works).",
)
def catalogue_sensor(context: dg.SensorEvaluationContext, citeworth: PlatformResource, dumps):
    signature = catalogue_signature(dumps, settle_seconds=citeworth.shard_settle_seconds)
    if signature is None:
        return dg.SkipReason(f"catalogue files under {dumps} are still being written")
    if not signature:
        return dg.SkipReason(f"no MAG, OpenAlex or arXiv metadata files under {dumps}")
    cursor = json.dumps(signature)
    if cursor == context.cursor:
        return dg.SkipReason("catalogue files unchanged")
    if built_versions(context.instance, CATALOGUE, None).get(None) == signature_version(signature):
        return dg.SkipReason("the catalogue is built from these files already")
    run_key = f"catalogue:{len(signature)}:{sum(size for _, size, _ in signature)}:{max(m for _, _, m in signature)}"
    return dg.SensorResult(run_requests=[dg.RunRequest(run_key=run_key)], cursor=cursor)


def _pending_catalogue(instance: dg.DagsterInstance, settings, force: bool) -> tuple[list, list, list]:
    """One catalogue run whenever the dump root holds MAG, OpenAlex or arXiv metadata files, or an OpenAlex folder
    (one without works parts fails the run, naming the layouts looked for, instead of an empty catalogue)."""
    dumps = settings.require_dumps()
    runs = [None] if catalogue_files(dumps) or (dumps / OPENALEX_DIR).is_dir() else []
    return runs, runs, []


def _catalogue_progress(value) -> str:
    return (
        f"{value('works', 'works')} works, {value('work_references', 'edges')} edges, "
        f"{value('works', 'read_issues')} read issues"
    )


catalogue_source = DumpSource("catalogue", catalogue_job.name, _pending_catalogue, _catalogue_progress, rank=4)
