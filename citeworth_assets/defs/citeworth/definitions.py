"""CiteWorth dataset construction (CiteWorth §3): cleaning per shard, per field, dataset, statistics, release."""

import dagster as dg

from citeworth_assets.defs.citeworth.arxiv import citeworth_arxiv_assets
from citeworth_assets.defs.citeworth.assets import (
    citeworth_assets,
    citeworth_field_paragraphs,
)
from citeworth_assets.defs.citeworth.checks import citeworth_checks

field_job = dg.define_asset_job(
    "citeworth_field_job",
    selection=dg.AssetSelection.assets(citeworth_field_paragraphs),
    description="Gather one field's accepted paragraphs from every shard.",
)

defs = dg.Definitions(
    assets=[*citeworth_assets, *citeworth_arxiv_assets], asset_checks=citeworth_checks, jobs=[field_job]
)
