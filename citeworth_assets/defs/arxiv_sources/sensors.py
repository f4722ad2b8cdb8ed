"""The sensor that watches the dump root for arXiv bulk source dumps: a partition and a run per new or replaced tar."""

import dagster as dg

from citeworth_assets.defs.arxiv_sources.partitions import arxiv_source_dumps
from citeworth_assets.defs.automation import DumpSource
from citeworth_assets.defs.sensing import dump_partition_requests, dump_root_sensor
from citeworth_assets.lib.arxiv_sources.source_dumps import SOURCE_DIR, discover_source_dumps
from citeworth_assets.lib.read_issues import IssueLog
from citeworth_assets.resources import PlatformResource

arxiv_source_job = dg.define_asset_job(
    "arxiv_source_job",
    selection=dg.AssetSelection.assets("arxiv_source_papers", "arxiv_source_outcomes"),
    description="Convert one arXiv bulk LaTeX source dump into unarXive 2022 papers and its outcomes.",
)


@dump_root_sensor(
    arxiv_source_job,
    30,
    f"Adds a partition of arxiv_source_dumps and requests a run for every new or replaced, settled "
    f"arXiv_src_YYMM_NNN.tar under <dumps>/{SOURCE_DIR}/ or the dump root that the instance has not converted from "
    "the same bytes (size and modification time: the data version of arxiv_source_papers).",
)
def arxiv_source_sensor(context: dg.SensorEvaluationContext, citeworth: PlatformResource, dumps):
    source_dumps = discover_source_dumps(dumps, settle_seconds=citeworth.shard_settle_seconds)
    nothing_new = f"no new or changed settled source dumps under {dumps}"
    converted = [dg.AssetKey("arxiv_source_papers"), dg.AssetKey("arxiv_source_outcomes")]
    return dump_partition_requests(
        context, arxiv_source_dumps, source_dumps, nothing_new, arxiv_source_job.name, converted
    )


def _pending_source_dumps(instance: dg.DagsterInstance, settings, force: bool) -> tuple[list[str], list[str], list]:
    """Every bulk source dump under the dump root, each converted again (as ``citeworth build`` always did); the
    conversion adds its dump-file partition, which the arXiv ingestion's condition then follows."""
    refused = IssueLog()  # links out of the dump root: named in the build's output, never read
    keys = [dump.key for dump in discover_source_dumps(settings.require_dumps(), log=refused)]
    return keys, keys, [str(issue) for issue in refused.issues]


def _source_progress(value) -> str:
    """The conversion's line, then each submission not converted, by id with the reason."""
    line = (
        f"{value('arxiv_source_papers', 'converted')} of {value('arxiv_source_papers', 'submissions')} submissions "
        f"converted ({value('arxiv_source_papers', 'seconds_per_submission')} s each) -> "
        f"{value('arxiv_source_papers', 'arxiv_dump_file')}"
    )
    missed = (value("arxiv_source_outcomes", "not_converted") or "none").splitlines()
    return "\n".join([line, *(f"  {m.removeprefix('- ').replace('`', '').strip()}" for m in missed if m != "none")])


source_dump_source = DumpSource(
    "LaTeX source dumps", arxiv_source_job.name, _pending_source_dumps, _source_progress, arxiv_source_dumps, rank=2
)
