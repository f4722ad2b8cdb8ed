"""Manual evaluation of the CiteWorth dataset (CiteWorth §3.3): the blind sample and Table 3."""

import dagster as dg

from citeworth_assets.defs.manual_eval.assets import manual_eval_assets

defs = dg.Definitions(assets=manual_eval_assets)
