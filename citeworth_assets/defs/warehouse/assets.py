"""The DuckDB warehouse: every relation is a SQL model, ``dbt_like_sql/<schema>/<name>.sql``, and an asset.

Models read lake tables through the warehouse schema ``lake`` (``lake.s2orc_papers`` is a view over every
partition of that lake table, or an empty table with its columns before the first partition exists) and read
each other by name. Dependencies come from the SQL itself (see :mod:`citeworth_assets.lib.sql_models`): a
``lake.<table>`` becomes a dependency on the asset that writes the table, ``<schema>.<name>`` on that model.
Adding a view is adding a file. Every model writes the warehouse file, so all are in the ``warehouse`` pool
(limit 1 in the shipped instance configuration) on top of the warehouse's own writer lock.
"""

from importlib.resources import files
from pathlib import Path

import dagster as dg

from citeworth_assets.defs.automation import refreshed_view
from citeworth_assets.lib import domains, warehouse
from citeworth_assets.lib.manual_eval import evaluation as manual_eval
from citeworth_assets.lib.sql_models import SqlModel, load_models
from citeworth_assets.resources import CiteworthSettings

SQL_MODELS_DIR = Path(str(files("dbt_like_sql")))
WAREHOUSE_POOL = "warehouse"
LAKE_SCHEMA = "lake"
JUDGEMENT_EVENTS = "judgement_events"  # the annotators' files, not a lake table; written outside Dagster
DROP_REASON_REGISTRY = "drop_reason_registry"  # every domain's registered drop reasons, from the code


def create_sources(connection, settings, relations) -> None:
    """(Re)create the ``lake.*`` relations a model reads: views over the lake tables the domains declare
    (:func:`citeworth_assets.lib.domains.lake_tables`), and the relations built from code or the annotators' files."""
    tables = domains.lake_tables()
    for relation in sorted(relations):
        schema, table = relation.split(".")
        if schema != LAKE_SCHEMA:
            continue
        if table == JUDGEMENT_EVENTS:
            warehouse.create_relation(connection, relation, manual_eval.judgement_events_sql(settings.data))
        elif table == DROP_REASON_REGISTRY:
            warehouse.replace_table(connection, relation, domains.drop_reason_table())
        else:
            warehouse.create_lake_view(
                connection, relation, settings.lake, table, tables[table].schema, tables[table].partition_column
            )


def model_key(model: SqlModel) -> dg.AssetKey:
    return dg.AssetKey([model.schema, model.name])


def upstream_assets(model: SqlModel, model_keys: dict[str, dg.AssetKey]) -> tuple[list[dg.AssetKey], list[str]]:
    """The assets a model reads, and the relations it reads that nothing here creates."""
    deps, unknown, tables = set(), [], domains.lake_tables()
    for relation in sorted(model.upstream):
        schema, table = relation.split(".")
        if schema == LAKE_SCHEMA and table in tables:
            deps.update(dg.AssetKey(asset) for asset in tables[table].assets)
        elif relation in model_keys:
            deps.add(model_keys[relation])
        elif relation not in (f"{LAKE_SCHEMA}.{JUDGEMENT_EVENTS}", f"{LAKE_SCHEMA}.{DROP_REASON_REGISTRY}"):
            unknown.append(relation)
    return sorted(deps, key=str), unknown


def build_sql_model_asset(model: SqlModel, model_keys: dict[str, dg.AssetKey]) -> dg.AssetsDefinition:
    deps, unknown = upstream_assets(model, model_keys)
    description = model.description + (f" (reads relations no asset creates: {', '.join(unknown)})" if unknown else "")

    @dg.asset(
        key=model_key(model),
        deps=deps,
        group_name="warehouse",
        kinds={"duckdb", "sql"},
        pool=WAREHOUSE_POOL,
        automation_condition=refreshed_view(),
        description=description,
        metadata={"sql": dg.MetadataValue.md(f"```sql\n{model.sql}\n```"), "file": str(model.path)},
    )
    def sql_model(citeworth: CiteworthSettings) -> dg.MaterializeResult:
        settings = citeworth.settings
        settings.require_data()
        with warehouse.writing(settings.warehouse) as connection:
            create_sources(connection, settings, model.upstream)
            warehouse.create_relation(connection, model.relation, model.sql, model.materialized, model.description)
            rows = warehouse.first_row(connection, f"SELECT count(*) FROM {model.relation}")[0]
            preview = connection.sql(f"SELECT * FROM {model.relation} LIMIT 20").to_arrow_table()
        return dg.MaterializeResult(
            metadata={
                "relation": model.relation,
                "materialized": model.materialized,
                "rows": rows,
                "warehouse": str(settings.warehouse),
                "preview": dg.MetadataValue.md(warehouse.markdown_table(preview)),
            }
        )

    return sql_model


def build_sql_model_assets(folder: Path = SQL_MODELS_DIR) -> list[dg.AssetsDefinition]:
    models = load_models(folder) if folder.is_dir() else []
    model_keys = {model.relation: model_key(model) for model in models}
    return [build_sql_model_asset(model, model_keys) for model in models]


@dg.asset_check(
    asset=dg.AssetKey(["s2orc", "paper_rejections"]),
    additional_deps=[dg.AssetKey(["s2orc", "papers"]), dg.AssetKey(["s2orc", "candidate_papers"])],
    description="Over every shard, candidates and rejections add up to the papers.",
)
def s2orc_filter_accounts_for_every_paper(citeworth: CiteworthSettings) -> dg.AssetCheckResult:
    with warehouse.reading(citeworth.settings.warehouse) as connection:
        papers, candidates, rejections = warehouse.first_row(
            connection,
            "SELECT (SELECT count(*) FROM s2orc.papers), (SELECT count(*) FROM s2orc.candidate_papers), "
            "(SELECT count(*) FROM s2orc.paper_rejections)",
        )
    return dg.AssetCheckResult(
        passed=papers == candidates + rejections,
        metadata={"papers": papers, "candidates": candidates, "rejections": rejections},
    )


warehouse_checks = [s2orc_filter_accounts_for_every_paper]
