"""S2AG: the release's ``papers`` and ``abstracts`` staged once into the lake (what every full-text file joins)."""

import json

import dagster as dg

from citeworth_assets.defs.automation import DumpSource
from citeworth_assets.defs.sensing import dump_root_sensor
from citeworth_assets.lib.read_issues import IssueLog
from citeworth_assets.lib.s2ag import layout, staging
from citeworth_assets.lib.s2ag.metadata import DEFAULT_FIELD_SOURCES
from citeworth_assets.resources import PlatformResource


class StagingConfig(dg.Config):
    """Which ``s2fieldsofstudy`` sources give a paper its MAG fields: ``external`` (the MAG's and other external
    categories, the default, closest to the 2020 release), and ``s2-fos-model`` to count S2's classifier too."""

    field_sources: list[str] = list(DEFAULT_FIELD_SOURCES)


@dg.asset(
    group_name="s2ag",
    kinds={"parquet", "duckdb"},
    description="Every S2AG release's papers and abstracts (the files under s2ag/<release>/papers and abstracts), "
    "staged once into the lake sorted by corpus id (s2ag_papers, s2ag_abstracts): each full-text file's papers "
    "join only their own corpus ids, never the raw files.",
)
def s2ag_metadata(config: StagingConfig, citeworth: PlatformResource) -> dg.MaterializeResult:
    settings = citeworth.settings
    log = IssueLog()
    staged = staging.stage_all(settings.lake, settings.require_dumps(), log, tuple(config.field_sources))
    return dg.MaterializeResult(
        metadata={
            "releases": dg.MetadataValue.json(
                {s.release: {"papers": s.papers, "abstracts": s.abstracts, "repeated": s.repeated} for s in staged}
            ),
            "papers": sum(s.papers for s in staged),
            "abstracts": sum(s.abstracts for s in staged),
            "field_sources": ", ".join(config.field_sources),
            "read_issues": log.total,
            "read_issues_by_kind": dg.MetadataValue.json(log.counts),
            "first_read_issues": dg.MetadataValue.md("\n".join(f"- `{i}`" for i in log.issues[:20]) or "none"),
        }
    )


def s2ag_join_metadata(context, file: layout.S2agFile, joined) -> dict:
    """What an S2AG file's ``s2orc_papers`` run tells about its join; a warning where metadata was missing."""
    if not joined.metadata_staged:
        context.log.warning(
            f"{file.path}: release {file.release} has no staged papers/abstracts: its papers carry what the full "
            "text says (no fields of study, citation counts or venue), so the candidate filter rejects them"
        )
    return {
        "s2ag_release": file.release,
        "s2ag_dataset": file.dataset,
        "with_papers_row": joined.with_papers_row,
        "without_papers_row": joined.papers - joined.with_papers_row,
        "with_abstract": joined.with_abstract,
        "abstract_from_full_text": joined.abstract_from_full_text,
    }


s2ag_metadata_job = dg.define_asset_job(
    "s2ag_metadata_job",
    selection=dg.AssetSelection.assets(s2ag_metadata),
    description="Stage the papers and abstracts of every S2AG release into the lake.",
)


def _signature(dumps, settle_seconds: float = 0.0) -> list:
    files = layout.discover_files(dumps, settle_seconds)
    paths = sorted({path for file in files for path in file.metadata_files})
    return staging.signature(paths) if files else []


@dump_root_sensor(
    s2ag_metadata_job,
    60,
    "Requests a staging run when the papers or abstracts files of an S2AG release holding full texts change "
    "(names, sizes and modification times; nothing is read).",
)
def s2ag_metadata_sensor(context: dg.SensorEvaluationContext, citeworth: PlatformResource, dumps):
    signature = _signature(dumps, citeworth.shard_settle_seconds)
    if not signature:
        return dg.SkipReason(f"no S2AG release with full texts and papers or abstracts under {dumps}")
    cursor = json.dumps(signature)
    if cursor == context.cursor:
        return dg.SkipReason("S2AG papers and abstracts unchanged")
    releases = _release_files(dumps, citeworth.shard_settle_seconds)
    if not _stale_releases(releases, citeworth.settings.lake):  # a build staged these bytes already
        return dg.SensorResult(skip_reason="S2AG papers and abstracts already staged as they are now", cursor=cursor)
    run_key = f"s2ag_metadata:{len(signature)}:{sum(row[2] for row in signature)}:{max(row[3] for row in signature)}"
    return dg.SensorResult(run_requests=[dg.RunRequest(run_key=run_key)], cursor=cursor)


def _release_files(dumps, settle_seconds: float = 0.0) -> dict:
    """The papers and abstracts files of each release that holds full texts."""
    releases = {}
    for file in layout.discover_files(dumps, settle_seconds):
        releases.setdefault(file.release, list(file.metadata_files))
    return releases


def _stale_releases(releases: dict, lake_root, force: bool = False) -> list:
    """The releases whose metadata is not staged as their files are now."""
    return [
        release
        for release, paths in releases.items()
        if force or staging.staged_signature(lake_root, release) != staging.signature(paths)
    ]


def _pending_staging(instance: dg.DagsterInstance, settings, force: bool) -> tuple[list, list, list]:
    """One staging run when a release's metadata is not staged as its files are now (or with ``force``)."""
    releases = _release_files(settings.require_dumps())
    stale = _stale_releases(releases, settings.lake, force)
    notes = [
        f"S2AG release {release}: no papers files, its papers are built from the full texts alone"
        for release, paths in releases.items()
        if not any(path.parent.name == "papers" for path in paths)
    ]
    runs = [None] if stale else []
    return runs, runs, notes


def _staging_progress(value) -> str:
    return (
        f"{value('s2ag_metadata', 'papers')} papers rows and {value('s2ag_metadata', 'abstracts')} abstracts staged, "
        f"{value('s2ag_metadata', 'read_issues')} read issues"
    )


staging_source = DumpSource("s2ag metadata", s2ag_metadata_job.name, _pending_staging, _staging_progress)
