"""CiteSum: candidates per shard, the dataset, its release and the extractive baselines."""

import dagster as dg

from citeworth_assets.defs.citesum.assets import citesum_assets

# The catalogue needs every shard, and each shard's candidates need the catalogue: two jobs, run in this order
# after the shard jobs (`citeworth build` does; in the UI, materialize them after new shards arrive).
catalogue_job = dg.define_asset_job(
    "citesum_catalogue_job",
    selection=dg.AssetSelection.assets("citesum_cited_abstracts"),
    description="Gather the cited papers' abstracts from every shard.",
)
candidates_job = dg.define_asset_job(
    "citesum_candidates_job",
    selection=dg.AssetSelection.assets("citesum_candidates", "citesum_drops"),
    description="Extract and score one shard's CiteSum candidates against the cited-abstract catalogue.",
)

defs = dg.Definitions(assets=citesum_assets, jobs=[catalogue_job, candidates_job])
