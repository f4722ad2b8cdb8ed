"""The one Definitions object of the citeworth code location (``dagster dev -w workspace.yaml``)."""


import dagster as dg

from citeworth_assets.defs.citesum.assets import citesum_assets
from citeworth_assets.defs.models.assets import CiteworthModels, model_assets
from citeworth_assets.defs.citeworth.assets import (
    citeworth_cleaning,
    citeworth_dataset,
    citeworth_field_paragraphs,
    citeworth_release,
    citeworth_rule_comparison,
    citeworth_statistics,
)
from citeworth_assets.defs.citeworth.checks import citeworth_checks
from citeworth_assets.defs.citeworth.manual_eval import manual_eval_assets
from citeworth_assets.defs.s2orc.assets import shard_assets
from citeworth_assets.defs.s2orc.partitions import s2orc_shards
from citeworth_assets.defs.s2orc.sensors import s2orc_dump_sensor, s2orc_shard_job
from citeworth_assets.defs.warehouse.assets import (
    build_sql_model_assets,
    citesum_warehouse_views,
    citeworth_warehouse_views,
    models_warehouse_views,
    s2orc_filter_accounts_for_every_paper,
    s2orc_warehouse_views,
)
from citeworth_assets.resources import CiteworthSettings

field_job = dg.define_asset_job(
    "citeworth_field_job",
    selection=dg.AssetSelection.assets(citeworth_field_paragraphs),
    description="Gather one field's accepted paragraphs from every shard.",
)
models_job = dg.define_asset_job(
    "models_job",
    selection=dg.AssetSelection.groups("models") | dg.AssetSelection.assets("models_warehouse_views"),
    description="Train and evaluate every cite-worthiness model, compare them and fill the domain matrix.",
)
warehouse_job = dg.define_asset_job(
    "warehouse_job",
    selection=dg.AssetSelection.groups("warehouse", "analytics")
    | dg.AssetSelection.assets(citeworth_dataset, citeworth_statistics, citeworth_release, citeworth_rule_comparison)
    | dg.AssetSelection.assets("citeworth_manual_eval_sample", "citeworth_manual_eval_results")
    | dg.AssetSelection.assets("citesum_dataset", "citesum_release", "citesum_baselines"),
    description="Build the datasets, their statistics and releases, the rule comparison and baselines, the warehouse "
    "views and SQL models.",
)


def build_definitions(settings: CiteworthSettings | None = None, models: CiteworthModels | None = None) -> dg.Definitions:
    """The code location, with settings from the environment unless given (the CLI passes its flags)."""
    return dg.Definitions(
        assets=[
            *shard_assets,
            citeworth_cleaning,
            citeworth_field_paragraphs,
            citeworth_dataset,
            citeworth_statistics,
            citeworth_release,
            citeworth_rule_comparison,
            *manual_eval_assets,
            *citesum_assets,
            *model_assets,
            s2orc_warehouse_views,
            citeworth_warehouse_views,
            citesum_warehouse_views,
            models_warehouse_views,
            *build_sql_model_assets(),
        ],
        asset_checks=[s2orc_filter_accounts_for_every_paper, *citeworth_checks],
        jobs=[s2orc_shard_job, field_job, warehouse_job, models_job],
        sensors=[s2orc_dump_sensor],
        resources={"citeworth": settings or CiteworthSettings.from_env(), "models": models or CiteworthModels.from_env()},
    )


defs = build_definitions()

__all__ = ["defs", "build_definitions", "s2orc_shards"]
