"""Checks of the citation recommendation data set: the properties §6.1's temporal split promises."""

import dagster as dg

from citeworth_assets.defs.citrec.assets import citrec_dataset, lake_partition
from citeworth_assets.defs.citrec.settings import CitrecResource
from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.resources import PlatformResource

pc = lazy_module("pyarrow.compute")


@dg.asset_check(
    asset=citrec_dataset,
    description="No citing paper has contexts on both sides of the split (no wording leaks from training into "
    "testing), and every test item cites a candidate.",
)
def citrec_split_is_clean(citrec: CitrecResource, citeworth: PlatformResource) -> dg.AssetCheckResult:
    name = citrec.eval_settings.name
    contexts = lake_partition(citeworth, "citrec_contexts", name).select(["split", "citing", "cited"])
    candidates = set(lake_partition(citeworth, "citrec_candidates", name).column("work").to_pylist())
    train = contexts.filter(pc.equal(contexts["split"], "train"))
    test = contexts.filter(pc.equal(contexts["split"], "test"))
    both = set(train.column("citing").to_pylist()) & set(test.column("citing").to_pylist())
    uncandidated = sum(1 for work in test.column("cited").to_pylist() if work not in candidates)
    return dg.AssetCheckResult(
        passed=not both and uncandidated == 0,
        metadata={
            "citing_papers_in_both_splits": len(both),
            "test_items_citing_no_candidate": uncandidated,
            "examples": dg.MetadataValue.json(sorted(both)[:10]),
        },
    )


citrec_checks = [citrec_split_is_clean]
