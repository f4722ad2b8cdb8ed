"""Checks on the CiteWorth dataset: what the paper promises of every sentence, split and field."""

import dagster as dg

from citeworth_assets.defs.citeworth.assets import citeworth_dataset
from citeworth_assets.lib.citeworth.dataset import read_dataset
from citeworth_assets.lib.citeworth.quality import citation_marker, fails_sentence_format
from citeworth_assets.lib.citeworth.rules import CHECK_WORTHY
from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.resources import PlatformResource

pc = lazy_module("pyarrow.compute")


def _sentences(citeworth: PlatformResource) -> list[dict]:
    table = read_dataset(citeworth.settings.lake, citeworth.rule_set.name).select(["paper_id", "samples"])
    return [sample for row in table.to_pylist() for sample in row["samples"]]


@dg.asset_check(asset=citeworth_dataset, description="No cleaned cite-worthy sentence still holds a citation marker.")
def no_citation_marker_left(citeworth: PlatformResource) -> dg.AssetCheckResult:
    rules = citeworth.rule_set
    cited = [s["text"] for s in _sentences(citeworth) if s["label"] == CHECK_WORTHY]
    left = [text for text in cited if rules.leftover_citation(text)]
    stricter = sum(citation_marker(text) is not None for text in cited)
    return dg.AssetCheckResult(
        passed=not left,
        metadata={
            "cite_worthy_sentences": len(cited),
            "with_marker": len(left),
            "with_marker_stricter_detector": stricter,
            "examples": dg.MetadataValue.json(left[:5]),
        },
    )


@dg.asset_check(
    asset=citeworth_dataset,
    description="Every sentence passes the rule set's format rules: over its short_sentence_chars characters (20 "
    "published), starting with a capital and ending with . ? or !.",
)
def sentences_pass_format_checks(citeworth: PlatformResource) -> dg.AssetCheckResult:
    texts = [s["text"] for s in _sentences(citeworth)]
    failing = [t for t in texts if fails_sentence_format(t, citeworth.rule_set)]
    return dg.AssetCheckResult(
        passed=not failing,
        metadata={"sentences": len(texts), "failing": len(failing), "examples": dg.MetadataValue.json(failing[:5])},
    )


@dg.asset_check(asset=citeworth_dataset, description="No paper has paragraphs in two splits.")
def splits_disjoint_by_paper(citeworth: PlatformResource) -> dg.AssetCheckResult:
    table = read_dataset(citeworth.settings.lake, citeworth.rule_set.name).select(["paper_id", "split"])
    splits_per_paper = table.group_by("paper_id").aggregate([("split", "count_distinct")])
    shared = pc.sum(pc.greater(splits_per_paper.column("split_count_distinct"), 1)).as_py() or 0
    return dg.AssetCheckResult(
        passed=shared == 0, metadata={"papers": splits_per_paper.num_rows, "papers_in_several_splits": shared}
    )


@dg.asset_check(asset=citeworth_dataset, description="Every sampled field has the same number of paragraphs.")
def fields_balanced(citeworth: PlatformResource) -> dg.AssetCheckResult:
    table = read_dataset(citeworth.settings.lake, citeworth.rule_set.name).select(["field"])
    counts = {
        row["field"]: row["field_count"] for row in table.group_by("field").aggregate([("field", "count")]).to_pylist()
    }
    return dg.AssetCheckResult(
        passed=len(set(counts.values())) <= 1, metadata={"paragraphs_per_field": dg.MetadataValue.json(counts)}
    )


citeworth_checks = [no_citation_marker_left, sentences_pass_format_checks, splits_disjoint_by_paper, fields_balanced]
