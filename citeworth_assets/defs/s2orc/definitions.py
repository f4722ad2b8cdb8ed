"""S2ORC: shard assets (papers, candidate filter, paragraphs), the dump sensor and the shard job."""

import dagster as dg

from citeworth_assets.defs.s2orc.assets import dump_assets, shard_assets
from citeworth_assets.defs.s2orc.sensors import s2orc_dump_sensor, s2orc_shard_job, shard_source

s2orc_dump_job = dg.define_asset_job(
    "s2orc_dump_job",
    selection=dg.AssetSelection.assets(*dump_assets),
    description="Checks across every shard of the dump: papers found in several shards.",
)

defs = dg.Definitions(
    assets=shard_assets + dump_assets, jobs=[s2orc_shard_job, s2orc_dump_job], sensors=[s2orc_dump_sensor]
)

sources = [shard_source]  # what `citeworth build` runs from the dump root before asking the graph
