"""Manual evaluation (CiteWorth §3.3): the blind sample to annotate and the Table 3 results."""

import dagster as dg

from citeworth_assets.defs.citeworth.assets import citeworth_dataset
from citeworth_assets.defs.outputs import derived_asset
from citeworth_assets.lib import lake
from citeworth_assets.lib.citeworth.dataset import RULES_DIMENSION, read_dataset, sample_candidate_papers
from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.manual_eval import evaluation
from citeworth_assets.lib.manual_eval.store import JudgementStore
from citeworth_assets.lib.sentences import splitter
from citeworth_assets.lib.warehouse import markdown_table
from citeworth_assets.resources import PlatformResource

pa = lazy_module("pyarrow")


def judgement_store(citeworth: PlatformResource) -> JudgementStore:
    return JudgementStore(citeworth.settings.judgements_dir(citeworth.rule_set.name))


def read_sample(citeworth: PlatformResource) -> list[dict]:
    rules = citeworth.rule_set.name
    folder = lake.partition_dir(citeworth.settings.lake, "citeworth_manual_eval_sample", rules, RULES_DIMENSION)
    return (
        lake.read_partition(
            citeworth.settings.lake, "citeworth_manual_eval_sample", rules, dimension=RULES_DIMENSION
        ).to_pylist()
        if folder.is_dir()
        else []
    )


class SampleConfig(dg.Config):
    sentences_per_method_and_label: int = 500
    seed: int = 33
    baseline_candidate_papers: int = 5000


@derived_asset(
    "citeworth",
    [citeworth_dataset, "s2orc_paragraphs"],
    "Blind sample for manual evaluation: N cite-worthy and N non-cite-worthy sentences of the dataset and "
    "of the span-removal baseline, shuffled under opaque ids; already judged items are kept on re-sampling.",
)
def citeworth_manual_eval_sample(
    context: dg.AssetExecutionContext, config: SampleConfig, citeworth: PlatformResource
) -> dg.MaterializeResult:
    settings, rules = citeworth.settings, citeworth.rule_set
    ours = evaluation.dataset_sentences(read_dataset(settings.lake, rules.name).to_pylist())
    papers = sample_candidate_papers(settings.lake, config.baseline_candidate_papers)
    baseline = evaluation.baseline_sentences(papers, rules, splitter(citeworth.splitter))
    store = judgement_store(citeworth)
    judged = {judgement["item_id"] for judgement in store.all_active()}
    sample = evaluation.draw_sample(
        rules.name, {"ours": ours, "baseline": baseline}, config.sentences_per_method_and_label, config.seed, judged
    )
    for warning in sample.warnings:
        context.log.warning(warning)
    lake.write_partition(
        settings.lake,
        "citeworth_manual_eval_sample",
        evaluation.sample_schema(),
        sample.items,
        rules.name,
        RULES_DIMENSION,
    )
    return dg.MaterializeResult(
        metadata={
            "rule_set": rules.name,
            "items": len(sample.items),
            "per_method_and_label": sample.per_stratum,
            "kept_judged_items": len(judged & {item["item_id"] for item in sample.items}),
            "warnings": dg.MetadataValue.json(sample.warnings),
            "annotate": f"citeworth annotate --data {settings.data} --rules {rules.name}",
        }
    )


@derived_asset(
    "citeworth",
    [citeworth_manual_eval_sample],
    "Table 3 of the paper from the judgements so far: per method the share of sentences extracted "
    "correctly and with citation markers removed, 95% Wilson intervals, improvement over the baseline, Cohen's kappa.",
)
def citeworth_manual_eval_results(citeworth: PlatformResource) -> dg.MaterializeResult:
    settings, rules = citeworth.settings, citeworth.rule_set.name
    rows = evaluation.table_3(rules, read_sample(citeworth), judgement_store(citeworth).all_active())
    lake.write_partition(
        settings.lake, "citeworth_manual_eval_results", evaluation.result_schema(), rows, rules, RULES_DIMENSION
    )
    table = pa.Table.from_pylist(rows, schema=evaluation.result_schema())
    return dg.MaterializeResult(metadata={"rule_set": rules, "table_3": dg.MetadataValue.md(markdown_table(table))})


manual_eval_assets = [citeworth_manual_eval_sample, citeworth_manual_eval_results]
