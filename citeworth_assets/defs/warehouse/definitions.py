"""The DuckDB warehouse: one asset per SQL model in dbt_like_sql/, and the job that builds the datasets and
refreshes the warehouse after the shards."""

import dagster as dg

from citeworth_assets.defs.warehouse.assets import (
    build_sql_model_assets,
    warehouse_checks,
)

warehouse_job = dg.define_asset_job(
    "warehouse_job",
    selection=dg.AssetSelection.groups("warehouse")
    | dg.AssetSelection.assets(
        "citeworth_dataset", "citeworth_statistics", "citeworth_release", "citeworth_rule_comparison"
    )
    | dg.AssetSelection.assets("citeworth_manual_eval_sample", "citeworth_manual_eval_results")
    | dg.AssetSelection.assets("citesum_dataset", "citesum_release", "citesum_baselines")
    | dg.AssetSelection.assets("paper_tables"),  # what platform.paper_tables reads
    description="Build the datasets, their statistics and releases, the rule comparison and baselines, and every "
    "warehouse view.",
)

defs = dg.Definitions(assets=build_sql_model_assets(), asset_checks=warehouse_checks, jobs=[warehouse_job])
