"""Cite-worthiness models (seeds/001 §4-§6): training assets tracked in MLflow, comparison, cross-field matrix."""

import dagster as dg

from citeworth_assets.defs.models.assets import model_assets

models_job = dg.define_asset_job(
    "models_job",
    selection=dg.AssetSelection.groups("models")
    | dg.AssetSelection.assets(dg.AssetKey(["citeworth", "model_comparison"]), dg.AssetKey(["citeworth", "domain_matrix"])),
    description="Train and evaluate every cite-worthiness model, compare them and fill the domain matrix.",
)

defs = dg.Definitions(assets=model_assets, jobs=[models_job])
