"""ROUGE-SciQFS: the clean tables, examples with ROUGE augmentation, the release and the baselines."""

import dagster as dg

from citeworth_assets.defs.sciqfs.assets import sciqfs_assets
from citeworth_assets.defs.sciqfs.checks import sciqfs_checks

# Built after the shards and the cited-abstract catalogue (citesum_catalogue_job); the baselines train, so they are
# a job of their own, run by hand.
dataset_job = dg.define_asset_job(
    "sciqfs_dataset_job",
    selection=dg.AssetSelection.assets("sciqfs_tables", "sciqfs_examples", "sciqfs_release"),
    description="Build the ROUGE-SciQFS tables, examples (with the greedy ROUGE augmentation) and release from every shard.",
)
baselines_job = dg.define_asset_job(
    "sciqfs_baselines_job",
    selection=dg.AssetSelection.assets("sciqfs_baselines"),
    description="Train and score the ROUGE-SciQFS baselines (Table 3), one MLflow run each.",
)

defs = dg.Definitions(assets=sciqfs_assets, asset_checks=sciqfs_checks, jobs=[dataset_job, baselines_job])
