"""S2ORC ingestion, one partition per shard: papers, the candidate filter and body-text paragraphs."""

import time

import dagster as dg

from citeworth_assets.defs.outputs import derived_asset, duplicates_result, per_shard_kept_and_dropped
from citeworth_assets.defs.s2ag.metadata import s2ag_join_metadata
from citeworth_assets.defs.s2orc.built import input_metadata, input_version
from citeworth_assets.defs.s2orc.partitions import s2orc_shards
from citeworth_assets.lib import lake
from citeworth_assets.lib.jsonl import IssueLog
from citeworth_assets.lib.s2ag.join import write_papers as write_s2ag_papers
from citeworth_assets.lib.s2ag.layout import S2agFile
from citeworth_assets.lib.s2ag.records import write_paragraphs as write_s2ag_paragraphs
from citeworth_assets.lib.s2ag.sources import find_source
from citeworth_assets.lib.s2orc.duplicates import write_duplicate_papers
from citeworth_assets.lib.s2orc.schema import READ_ISSUE_SCHEMA, ShardSource
from citeworth_assets.lib.s2orc.shard_tables import candidate_ids, write_candidates, write_papers, write_paragraphs
from citeworth_assets.lib.s2orc.values import MAX_PARAGRAPH_CHARS
from citeworth_assets.resources import CiteworthSettings

SHOWN_ISSUES = 20


def _write_issues(settings, table: str, source: ShardSource, log: IssueLog) -> dict:
    """Store the read issues of a shard in the lake; metadata that counts them and shows the first few."""
    lake.write_partition(settings.lake, table, READ_ISSUE_SCHEMA, map(source.issue_row, log.issues), source.shard)
    shown = "\n".join(f"- `{issue}`" for issue in log.issues[:SHOWN_ISSUES]) or "none"
    return {
        "read_issues": log.total,
        "read_issues_by_kind": dg.MetadataValue.json(log.counts),
        "first_read_issues": dg.MetadataValue.md(shown),
    }


def _read_metadata(settings, table: str, source: ShardSource, log: IssueLog, rate: tuple[str, int, float]) -> dict:
    """What reading one file of a shard gives the asset's metadata: the file, its size, rows per second and the read
    issues (stored in ``table``); ``rate`` is (what was counted, how many, seconds)."""
    unit, rows, seconds = rate
    return {
        "source_file": str(source.path),
        "source_mb": round(source.path.stat().st_size / 1e6, 2),
        f"{unit}_per_second": round(rows / seconds, 1) if seconds else None,
        **_write_issues(settings, table, source, log),
    }


@dg.asset(
    partitions_def=s2orc_shards,
    group_name="s2orc",
    kinds={"parquet"},
    deps=["s2ag_metadata"],
    description="S2ORC metadata rows of a shard, typed, with provenance (release, shard, file, line); for an S2AG "
    "full-text file, its papers with the metadata of the release's staged papers and abstracts (docs/s2ag.md).",
)
def s2orc_papers(context: dg.AssetExecutionContext, citeworth: CiteworthSettings) -> dg.MaterializeResult:
    settings = citeworth.settings
    shard = find_source(settings.require_dumps(), context.partition_key)
    log = IssueLog()
    started = time.perf_counter()
    if isinstance(shard, S2agFile):  # an S2AG full-text file: its papers joined with the release's staged metadata
        source = ShardSource(shard.release, shard.key, shard.path)
        joined = write_s2ag_papers(settings.lake, shard, source, log)
        rows, extra = joined.papers, s2ag_join_metadata(context, shard, joined)
    else:
        source = ShardSource(shard.release, shard.key, shard.metadata)
        rows, extra = write_papers(settings.lake, source, log), {}
    seconds = time.perf_counter() - started
    if log.total:
        context.log.warning(f"{source.path}: {log.total} read issues {log.counts}")
    return dg.MaterializeResult(
        data_version=dg.DataVersion(input_version(shard)),  # the record of what was built: see defs/s2orc/built.py
        metadata={
            **input_metadata(shard),
            "papers": rows,
            **extra,
            **_read_metadata(settings, "s2orc_metadata_issues", source, log, ("papers", rows, seconds)),
        },
    )


@per_shard_kept_and_dropped(
    "s2orc",
    [s2orc_papers],
    kept=("s2orc_candidate_papers", "Papers that pass the CiteWorth candidate filter (CiteWorth §3.1)."),
    dropped=("s2orc_paper_rejections", "Papers the candidate filter rejects, with the first criterion each fails."),
    check=(
        "candidates_and_rejections_add_up",
        "s2orc_candidate_papers",
        "Every paper of the shard is either a candidate or a rejection, once.",
    ),
)
def s2orc_candidate_filter(context: dg.AssetExecutionContext, citeworth: CiteworthSettings):
    split = write_candidates(citeworth.settings.lake, context.partition_key)
    yield dg.MaterializeResult(
        asset_key="s2orc_candidate_papers",
        metadata={"candidates": split.candidates, "papers": split.papers},
    )
    yield dg.MaterializeResult(
        asset_key="s2orc_paper_rejections",
        metadata={"rejections": split.rejections, "by_criterion": dg.MetadataValue.json(split.by_criterion)},
    )
    yield dg.AssetCheckResult(
        check_name="candidates_and_rejections_add_up",
        asset_key="s2orc_candidate_papers",
        passed=split.candidates + split.rejections == split.papers,
        metadata={"papers": split.papers, "candidates": split.candidates, "rejections": split.rejections},
    )


class ParagraphConfig(dg.Config):
    """A paragraph longer than this is dropped as a parse error (read issue ``paragraph_too_long``), so that no
    single paragraph can make the sentence splitting of a shard take minutes."""

    max_paragraph_chars: int = MAX_PARAGRAPH_CHARS


@dg.asset(
    partitions_def=s2orc_shards,
    group_name="s2orc",
    kinds={"parquet"},
    deps=["s2orc_candidate_papers"],
    description=(
        "Body-text paragraphs of the shard's candidate papers: section, text, citation spans (with the linked "
        "paper of each span's bibliography entry) and reference spans, with provenance down to the pdf_parses line."
    ),
)
def s2orc_paragraphs(
    context: dg.AssetExecutionContext, config: ParagraphConfig, citeworth: CiteworthSettings
) -> dg.MaterializeResult:
    settings = citeworth.settings
    shard = find_source(settings.require_dumps(), context.partition_key)
    candidates = candidate_ids(settings.lake, shard.key)
    s2ag = isinstance(shard, S2agFile)
    source = ShardSource(shard.release, shard.key, shard.path if s2ag else shard.pdf_parses)
    log = IssueLog()
    started = time.perf_counter()
    write = write_s2ag_paragraphs if s2ag else write_paragraphs
    written = write(settings.lake, source, log, candidates, config.max_paragraph_chars)
    seconds = time.perf_counter() - started
    missing = len(candidates - written.papers)
    if missing:
        context.log.warning(f"{missing} candidate papers have no body-text paragraphs in {source.path}")
    return dg.MaterializeResult(
        metadata={
            "paragraphs": written.rows,
            "papers_with_paragraphs": len(written.papers),
            "candidates_without_paragraphs": missing,
            **_read_metadata(settings, "s2orc_pdf_parse_issues", source, log, ("paragraphs", written.rows, seconds)),
        }
    )


@derived_asset(
    "s2orc",
    [dg.AssetDep(s2orc_papers, partition_mapping=dg.AllPartitionMapping())],
    "Every occurrence of a paper_id found in more than one shard; the first by release, shard and line "
    "is kept (repeats within one file are skipped by the reader and reported as duplicate_paper_id read issues).",
)
def s2orc_duplicate_papers(context: dg.AssetExecutionContext, citeworth: CiteworthSettings) -> dg.MaterializeResult:
    return duplicates_result(context, write_duplicate_papers(citeworth.settings.lake), "shard")


shard_assets = [s2orc_papers, s2orc_candidate_filter, s2orc_paragraphs]
dump_assets = [s2orc_duplicate_papers]
