"""CiteWorth dataset construction (CiteWorth §3): cleaned paragraphs per shard, per field, the balanced
dataset, its statistics and its release."""

import time

import dagster as dg

from citeworth_assets.defs.fields import mag_fields
from citeworth_assets.defs.figures import figure_metadata
from citeworth_assets.defs.outputs import derived_asset, per_shard_kept_and_dropped
from citeworth_assets.lib import lake
from citeworth_assets.lib.citeworth import dataset
from citeworth_assets.lib.citeworth.partition import clean_partition, cleaning_run
from citeworth_assets.lib.citeworth.quality import (
    compare_rule_sets,
    comparison_rule_sets,
    comparison_schema,
)
from citeworth_assets.lib.fields import CITEWORTH_FIELDS, FIELD_BY_KEY
from citeworth_assets.lib.figures import citeworth_statistics_figures
from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.s2orc.records import papers_from_paragraph_rows
from citeworth_assets.lib.sentences import splitter
from citeworth_assets.lib.warehouse import markdown_table
from citeworth_assets.resources import PlatformResource

pa = lazy_module("pyarrow")


@per_shard_kept_and_dropped(
    "citeworth",
    ["s2orc_paragraphs", "s2orc_candidate_papers"],
    kept=(
        "citeworth_paragraphs",
        "Paragraphs accepted by the configured CiteWorth rule set, in the release schema, per shard.",
    ),
    dropped=("citeworth_rejections", "Every paper and paragraph the rule set dropped, with the rule that dropped it."),
    check=(
        "no_internal_errors",
        "citeworth_rejections",
        "No paper of the shard was dropped for an unexpected exception (reason internal_error).",
    ),
)
def citeworth_cleaning(context: dg.AssetExecutionContext, citeworth: PlatformResource):
    settings, shard = citeworth.settings, context.partition_key
    rules = citeworth.rule_set
    fields = {
        row["paper_id"]: row["mag_field_of_study"]
        for row in lake.iter_partition_rows(
            settings.lake, "s2orc_candidate_papers", shard, ["paper_id", "mag_field_of_study"]
        )
    }
    papers = papers_from_paragraph_rows(lake.iter_partition_rows(settings.lake, "s2orc_paragraphs", shard), fields)
    started = time.perf_counter()
    tables = ("citeworth_paragraphs", "citeworth_rejections")
    with cleaning_run(settings.lake, "citeworth_cleaning", tables, rules.name, shard) as run:
        papers, errors = clean_partition(papers, rules, splitter(citeworth.splitter), run)
    seconds = time.perf_counter() - started
    common = {"rule_set": rules.name, "splitter": citeworth.splitter}
    yield dg.MaterializeResult(
        asset_key="citeworth_paragraphs",
        metadata={
            **common,
            "papers": papers,
            "paragraphs": run.kept.rows_written,
            "papers_per_second": round(papers / seconds, 1) if seconds else None,
        },
    )
    yield dg.MaterializeResult(
        asset_key="citeworth_rejections",
        metadata={
            **common,
            "drops": run.dropped.rows_written,
            "internal_errors": len(errors),
            "by_reason": dg.MetadataValue.json(run.tally.by_reason),
        },
    )
    yield dg.AssetCheckResult(
        check_name="no_internal_errors",
        asset_key="citeworth_rejections",
        passed=not errors,
        severity=dg.AssetCheckSeverity.ERROR,
        metadata={"internal_errors": len(errors), "examples": dg.MetadataValue.json(errors[:5])},
    )


@derived_asset(
    "citeworth",
    [
        dg.AssetDep("citeworth_paragraphs", partition_mapping=dg.AllPartitionMapping()),
        dg.AssetDep("citeworth_arxiv_paragraphs", partition_mapping=dg.AllPartitionMapping()),
        "s2orc_duplicate_papers",
    ],
    "Accepted paragraphs of papers with exactly this one field of study, from every S2ORC shard and every unarXive "
    "2022 dump file.",
    partitions_def=mag_fields,
    backfill_policy=dg.BackfillPolicy.single_run(),  # every field in one run: each is a quick gather over the lake
)
def citeworth_field_paragraphs(context: dg.AssetExecutionContext, citeworth: PlatformResource) -> dg.MaterializeResult:
    settings, rules = citeworth.settings, citeworth.rule_set.name
    paragraphs = {
        FIELD_BY_KEY[key]: dataset.write_field_paragraphs(settings.lake, rules, FIELD_BY_KEY[key], key)
        for key in context.partition_keys
    }
    return dg.MaterializeResult(metadata={"rule_set": rules, "paragraphs_by_field": paragraphs})


class DatasetConfig(dg.Config):
    """How the balanced dataset is sampled (CiteWorth §3.2)."""

    fields: list[str] = list(CITEWORTH_FIELDS)
    max_paragraphs_per_field: int | None = None
    seed: int = 1000


@derived_asset(
    "citeworth",
    [dg.AssetDep(citeworth_field_paragraphs, partition_mapping=dg.AllPartitionMapping())],
    "Paragraphs sampled evenly from the configured fields, split 80/10/10 by paper, seeded.",
)
def citeworth_dataset(config: DatasetConfig, citeworth: PlatformResource) -> dg.MaterializeResult:
    settings, rules = citeworth.settings, citeworth.rule_set.name
    summary = dataset.build_dataset(settings.lake, rules, config.fields, config.max_paragraphs_per_field, config.seed)
    return dg.MaterializeResult(metadata={"rule_set": rules, **summary})


@derived_asset(
    "citeworth",
    [citeworth_dataset],
    "The metrics of the paper's Table 2 (sentences, tokens, splits, cite-worthy share, lengths), overall "
    "and per field.",
)
def citeworth_statistics(citeworth: PlatformResource) -> dg.MaterializeResult:
    rules = citeworth.rule_set.name
    table = dataset.write_statistics(citeworth.settings.lake, rules, splitter(citeworth.splitter))
    overall = table.slice(0, 1).to_pylist()[0]
    return dg.MaterializeResult(
        metadata={
            "rule_set": rules,
            "overall": dg.MetadataValue.json(overall),
            "table": dg.MetadataValue.md(markdown_table(table)),
            **figure_metadata(
                citeworth_statistics_figures(
                    citeworth.settings.lake, rules, table.to_pylist(), citeworth.settings.figures_dir
                )
            ),
        }
    )


@derived_asset(
    "citeworth",
    [citeworth_dataset],
    "train/dev/test.jsonl in the published CiteWorth schema, plus Parquet, under <data>/exports/citeworth/<rule set>/.",
    kinds=("json", "parquet"),
)
def citeworth_release(citeworth: PlatformResource) -> dg.MaterializeResult:
    settings, rules = citeworth.settings, citeworth.rule_set.name
    folder, counts = dataset.export_release(settings.lake, rules, settings.export_dir("citeworth", rules))
    return dg.MaterializeResult(metadata={"folder": str(folder), "paragraphs": dg.MetadataValue.json(counts)})


class ComparisonConfig(dg.Config):
    max_candidate_papers: int = 1000


@derived_asset(
    "citeworth",
    ["s2orc_paragraphs", "s2orc_candidate_papers"],
    "citeworth_2021, the latest citeworth_improved_v<n> and the faithful set with each improvement alone, run on "
    "the same candidate papers: yield per 1000 candidates and quality proxies (leftover citation markers, "
    "format problems).",
)
def citeworth_rule_comparison(config: ComparisonConfig, citeworth: PlatformResource) -> dg.MaterializeResult:
    settings = citeworth.settings
    papers = dataset.sample_candidate_papers(settings.lake, config.max_candidate_papers)
    rows = compare_rule_sets(papers, comparison_rule_sets(), splitter(citeworth.splitter))
    table = pa.Table.from_pylist(rows, schema=comparison_schema())
    lake.write_partition(settings.lake, "citeworth_rule_comparison", comparison_schema(), rows)
    return dg.MaterializeResult(
        metadata={"candidate_papers": len(papers), "comparison": dg.MetadataValue.md(markdown_table(table))}
    )


citeworth_assets = [
    citeworth_cleaning,
    citeworth_field_paragraphs,
    citeworth_dataset,
    citeworth_statistics,
    citeworth_release,
    citeworth_rule_comparison,
]
