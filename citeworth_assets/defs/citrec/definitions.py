"""Citation recommendation (Saier 2019 ch. 5, §6.1-6.2): data set, trained recommenders, offline evaluation."""

import dagster as dg

from citeworth_assets.defs.citrec.assets import citrec_assets
from citeworth_assets.defs.citrec.checks import citrec_checks
from citeworth_assets.defs.citrec.settings import CitrecResource

citrec_job = dg.define_asset_job(
    "citrec_job",
    selection=dg.AssetSelection.groups("citrec") | dg.AssetSelection.key_prefixes(["citrec"]),
    description="Build the citation recommendation data set from the arXiv context export, train every configured "
    "model, evaluate them and refresh the citrec warehouse views (manual: nothing schedules it).",
)

defs = dg.Definitions(
    assets=citrec_assets, asset_checks=citrec_checks, jobs=[citrec_job], resources={"citrec": CitrecResource()}
)
