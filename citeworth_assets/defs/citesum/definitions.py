"""CiteSum: candidates per shard, the dataset, its release and the extractive baselines."""

import dagster as dg

from citeworth_assets.defs.citesum.abstractive import citesum_abstractive_scores
from citeworth_assets.defs.citesum.assets import citesum_assets
from citeworth_assets.defs.models.definitions import GPU_RUN_TAGS

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

# The abstractive models train like the other models: never on new data, only when asked (`citeworth build --models`
# runs this job after the models job, or Materialize); the job also refreshes their warehouse view.
models_job = dg.define_asset_job(
    "citesum_models_job",
    selection=dg.AssetSelection.assets(citesum_abstractive_scores, dg.AssetKey(["citesum", "abstractive_scores"])),
    description="Train and evaluate CiteSum's abstractive models (Tables 5-7) and refresh citesum.abstractive_scores.",
    tags=GPU_RUN_TAGS,  # on Kubernetes, the run pod asks for a GPU like the models job's
)

defs = dg.Definitions(
    assets=[*citesum_assets, citesum_abstractive_scores], jobs=[catalogue_job, candidates_job, models_job]
)
