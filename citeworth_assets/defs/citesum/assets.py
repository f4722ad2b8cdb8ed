"""CiteSum §2.1, §3.1: Related Work citation sentences as TLDRs of the cited papers."""

from collections import Counter

import dagster as dg

from citeworth_assets.defs.automation import follows_shards
from citeworth_assets.defs.figures import figure_metadata
from citeworth_assets.defs.outputs import derived_asset, per_shard_kept_and_dropped
from citeworth_assets.lib import filters, lake
from citeworth_assets.lib.citesum import construction as citesum
from citeworth_assets.lib.citesum import tables
from citeworth_assets.lib.citesum.baselines import score_baselines, tldr_records
from citeworth_assets.lib.citesum.reasons import REASONS
from citeworth_assets.lib.dataset_cards import s2ag_releases
from citeworth_assets.lib.figures import citesum_rouge_figure
from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.s2orc.records import papers_from_paragraph_rows
from citeworth_assets.lib.sentences import splitter
from citeworth_assets.lib.warehouse import markdown_table
from citeworth_assets.resources import PlatformResource

pa = lazy_module("pyarrow")


class CandidateConfig(dg.Config):
    """Filters of §2.1: the cited abstract's minimum length and the ROUGE recall thresholds (x100)."""

    min_abstract_words: int = citesum.MIN_ABSTRACT_WORDS
    rouge1_recall: float = citesum.ROUGE_THRESHOLDS["rouge1"]
    rouge2_recall: float = citesum.ROUGE_THRESHOLDS["rouge2"]
    rougeL_recall: float = citesum.ROUGE_THRESHOLDS["rougeL"]

    @property
    def thresholds(self) -> dict[str, float]:
        return {"rouge1": self.rouge1_recall, "rouge2": self.rouge2_recall, "rougeL": self.rougeL_recall}


@derived_asset(
    "citesum",
    [
        dg.AssetDep("s2orc_papers", partition_mapping=dg.AllPartitionMapping()),
        dg.AssetDep("s2orc_paragraphs", partition_mapping=dg.AllPartitionMapping()),
    ],
    "Every paper linked from a citation span of any shard, with title, abstract and fields of study: "
    "the lookup CiteSum candidates are scored against, built from every shard first so that the dataset does not "
    "depend on which shards happened to be in the lake when a shard ran.",
)
def citesum_cited_abstracts(citeworth: PlatformResource) -> dg.MaterializeResult:
    papers = tables.write_cited_abstract_catalogue(citeworth.settings.lake)
    return dg.MaterializeResult(metadata={"cited_papers": papers})


@per_shard_kept_and_dropped(
    "citesum",
    ["s2orc_paragraphs", citesum_cited_abstracts],
    kept=(
        "citesum_candidates",
        "Related Work sentences citing exactly one linked paper with an abstract, with their ROUGE recall against "
        "it, REF-replaced text and whether the ROUGE filter keeps them.",
    ),
    dropped=("citesum_drops", "Related Work sentences that are not candidates, with the reason."),
    automation_condition=follows_shards(),
)
def citesum_candidates(context: dg.AssetExecutionContext, config: CandidateConfig, citeworth: PlatformResource):
    settings, shard = citeworth.settings, context.partition_key
    cited_ids = {
        span["linked_paper_id"]
        for row in lake.iter_partition_rows(settings.lake, "s2orc_paragraphs", shard, ["section", "cite_spans"])
        if citesum.is_related_work(row["section"])
        for span in row["cite_spans"]
        if span["linked_paper_id"]
    }
    cited = tables.catalogued_papers(settings.lake, cited_ids)
    abstracts = {paper_id: paper["abstract"] for paper_id, paper in cited.items()}
    papers = papers_from_paragraph_rows(lake.iter_partition_rows(settings.lake, "s2orc_paragraphs", shard), {})
    counts, scores = Counter(), []
    kept, dropped = ("citesum_candidates", tables.candidate_schema()), ("citesum_drops", tables.drop_schema())
    with filters.run(settings.lake, "citesum_candidates", shard, [REASONS], kept, dropped) as run:
        for candidates, drops in citesum.iter_citation_candidates(
            papers, abstracts, splitter(citeworth.splitter), config.min_abstract_words, counts
        ):
            for drop in drops:
                run.drop(drop["reason"], {**drop, "shard": shard})
            for scored in citesum.score_candidates(candidates, abstracts):
                scores.append({f"{name}_recall": scored[f"{name}_recall"] for name in citesum.ROUGE_TYPES})
                example = citesum.make_example(scored)
                failed = citesum.failed_thresholds(scored, config.thresholds)
                run.keep({**example, "kept": not failed, "failed_thresholds": failed, "shard": shard})
    report = citesum.threshold_report(scores, config.thresholds)
    yield dg.MaterializeResult(
        asset_key="citesum_candidates",
        metadata={
            "candidates": run.kept.rows_written,
            "counts": dg.MetadataValue.json(dict(counts)),
            "rouge_filter": dg.MetadataValue.json(report),
        },
    )
    yield dg.MaterializeResult(
        asset_key="citesum_drops",
        metadata={"drops": run.dropped.rows_written, "by_reason": dg.MetadataValue.json(run.tally.by_reason)},
    )


class DatasetConfig(dg.Config):
    seed: int = 2022


@derived_asset(
    "citesum",
    [dg.AssetDep("citesum_candidates", partition_mapping=dg.AllPartitionMapping()), "s2orc_duplicate_papers"],
    "Kept candidates with the cited paper's abstract, title and discipline, split 90/5/5 by cited paper "
    "(no cited paper of validation or test in train; a citing paper in several shards counted once, from its "
    "first occurrence); Table 3 statistics and the discipline distribution.",
)
def citesum_dataset(config: DatasetConfig, citeworth: PlatformResource) -> dg.MaterializeResult:
    settings = citeworth.settings
    kept = tables.kept_candidates(settings.lake)
    cited = tables.catalogued_papers(settings.lake, {row["cited_paper_id"] for row in kept})
    examples = []
    for row in kept:
        paper = cited.get(row["cited_paper_id"], {})
        fields = paper.get("mag_field_of_study")
        examples.append(
            {
                **row,
                "title": paper.get("title"),
                "abstract": paper.get("abstract"),
                "discipline": citesum.discipline(fields),
            }
        )
    splits = citesum.split_by_cited_paper(examples, config.seed)
    rows = [{**example, "split": name} for name, split in splits.items() for example in split]
    lake.write_partition(settings.lake, "citesum_dataset", tables.example_schema(), rows)
    statistics = citesum.dataset_statistics(splits)
    per_split = [
        {
            "split": name,
            "examples": len(split),
            "mean_source_words": round(sum(citesum.words(e["abstract"]) for e in split) / len(split), 2)
            if split
            else None,
            "mean_summary_words": round(sum(citesum.words(e["target"]) for e in split) / len(split), 2)
            if split
            else None,
        }
        for name, split in splits.items()
    ]
    lake.write_partition(settings.lake, "citesum_statistics", tables.statistics_schema(), per_split)
    disciplines = [{"discipline": name, "cited_papers": count} for name, count in statistics["disciplines"].items()]
    lake.write_partition(settings.lake, "citesum_disciplines", tables.discipline_schema(), disciplines)
    figures = figure_metadata(citesum_rouge_figure(settings.lake, settings.figures_dir))
    return dg.MaterializeResult(metadata={"statistics": dg.MetadataValue.json(statistics), **figures})


@derived_asset(
    "citesum",
    [citesum_dataset],
    "train/validation/test.jsonl with src, tgt, paper_id, title, discipline (as the published CiteSum "
    "files), plus Parquet, under <data>/exports/citesum/.",
    kinds=("json", "parquet"),
)
def citesum_release(citeworth: PlatformResource) -> dg.MaterializeResult:
    settings = citeworth.settings
    table = lake.read_partition(settings.lake, "citesum_dataset")
    s2ag = s2ag_releases(settings.lake, "citesum_candidates")
    folder, counts = tables.export_release(table, settings.export_dir("citesum"), s2ag)
    return dg.MaterializeResult(metadata={"folder": str(folder), "examples": dg.MetadataValue.json(counts)})


@derived_asset(
    "citesum",
    [citesum_dataset],
    "EXT-LEAD, EXT-HEURISTIC and EXT-ORACLE (§3.1) on the CiteSum test split: mean ROUGE-1/2/L F1 x100.",
)
def citesum_baselines(citeworth: PlatformResource) -> dg.MaterializeResult:
    settings = citeworth.settings
    table = lake.read_partition(settings.lake, "citesum_dataset")
    test = [row for row in table.to_pylist() if row["split"] == "test"]
    scores = score_baselines(tldr_records(test, splitter(citeworth.splitter)))
    rows = [{"method": method, **values, "examples": len(test)} for method, values in scores.items()]
    result = pa.Table.from_pylist(rows, schema=tables.baseline_schema())
    lake.write_partition(settings.lake, "citesum_baselines", tables.baseline_schema(), rows)
    return dg.MaterializeResult(
        metadata={"test_examples": len(test), "scores": dg.MetadataValue.md(markdown_table(result))}
    )


citesum_assets = [citesum_cited_abstracts, citesum_candidates, citesum_dataset, citesum_release, citesum_baselines]
