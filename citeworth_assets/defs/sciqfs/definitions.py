"""ROUGE-SciQFS: the clean tables and examples per input partition, the release, and the baselines of Table 3."""

import dagster as dg

from citeworth_assets.defs.sciqfs.assets import dataset_assets
from citeworth_assets.defs.sciqfs.baselines import baseline_assets
from citeworth_assets.defs.sciqfs.checks import sciqfs_checks


def _job(name: str, assets: tuple[str, ...], description: str):
    return dg.define_asset_job(name, selection=dg.AssetSelection.assets(*assets), description=description)


# Per-partition jobs and the release, for `citeworth build` and the tests that drive partitions one by one (the
# automation conditions request the same runs).
shard_job = _job(
    "sciqfs_shard_job",
    ("sciqfs_s2orc_tables", "sciqfs_s2orc_examples"),
    "ROUGE-SciQFS tables and examples of one S2ORC shard.",
)
dump_file_job = _job(
    "sciqfs_dump_file_job",
    ("sciqfs_arxiv_tables", "sciqfs_arxiv_examples"),
    "ROUGE-SciQFS tables and examples of one unarXive dump file.",
)
release_job = _job(
    "sciqfs_release_job",
    ("sciqfs_release", "sciqfs_ranking_baselines"),
    "Gather every partition's examples into the ROUGE-SciQFS release, then score the untrained baselines.",
)
# The trained baselines are expensive, so they are a job of their own, run by hand; everything else follows its
# inputs through the automation conditions.
baselines_job = _job(
    "sciqfs_baselines_job",
    ("sciqfs_baselines",),
    "Train and score the ROUGE-SciQFS trained baselines (Table 3), one MLflow run each.",
)

defs = dg.Definitions(
    assets=[*dataset_assets, *baseline_assets],
    asset_checks=sciqfs_checks,
    jobs=[shard_job, dump_file_job, release_job, baselines_job],
)
