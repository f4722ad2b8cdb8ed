"""CiteSum (seeds/002): candidates per shard, the dataset, its release and the extractive baselines."""

import dagster as dg

from citeworth_assets.defs.citesum.assets import citesum_assets

defs = dg.Definitions(assets=citesum_assets)
