"""The DuckDB warehouse: views over the lake, and the analysts' SQL models as assets.

Every asset here writes the warehouse file, so all are in the ``warehouse`` pool (limit 1 in the
shipped instance configuration) on top of the warehouse's own writer lock.
"""


from pathlib import Path

import dagster as dg

from citeworth_assets.defs.s2orc.assets import REJECTION_SCHEMA
from citeworth_assets.lib import warehouse
from citeworth_assets.lib.s2orc import PAPER_SCHEMA, PARAGRAPH_SCHEMA, READ_ISSUE_SCHEMA
from citeworth_assets.lib.sql_models import SqlModel, load_models
from citeworth_assets.resources import CiteworthSettings

SQL_MODELS_DIR = Path(__file__).resolve().parents[3] / "dbt_like_sql"
WAREHOUSE_POOL = "warehouse"

# warehouse view -> (lake table, schema)
S2ORC_VIEWS = {
    "s2orc.papers": ("s2orc_papers", PAPER_SCHEMA),
    "s2orc.candidate_papers": ("s2orc_candidate_papers", PAPER_SCHEMA),
    "s2orc.paper_rejections": ("s2orc_paper_rejections", REJECTION_SCHEMA),
    "s2orc.paragraphs": ("s2orc_paragraphs", PARAGRAPH_SCHEMA),
    "s2orc.metadata_issues": ("s2orc_metadata_issues", READ_ISSUE_SCHEMA),
    "s2orc.pdf_parse_issues": ("s2orc_pdf_parse_issues", READ_ISSUE_SCHEMA),
}


@dg.asset(
    group_name="warehouse",
    kinds={"duckdb"},
    pool=WAREHOUSE_POOL,
    deps=["s2orc_papers", "s2orc_candidate_papers", "s2orc_paper_rejections", "s2orc_paragraphs"],
    automation_condition=dg.AutomationCondition.eager(),
    description="Warehouse schema s2orc: views over the S2ORC lake tables (all shards) and the read issues.",
)
def s2orc_warehouse_views(citeworth: CiteworthSettings) -> dg.MaterializeResult:
    settings = citeworth.settings
    settings.require_data()
    with warehouse.writing(settings.warehouse) as connection:
        for view, (table, schema) in S2ORC_VIEWS.items():
            warehouse.create_lake_view(connection, view, settings.lake, table, schema)
        warehouse.create_relation(
            connection,
            "s2orc.read_issues",
            "SELECT 'metadata' AS source, * FROM s2orc.metadata_issues "
            "UNION ALL BY NAME SELECT 'pdf_parses' AS source, * FROM s2orc.pdf_parse_issues",
        )
        counts = {
            view: warehouse.first_row(connection, f"SELECT count(*) FROM {view}")[0]
            for view in [*S2ORC_VIEWS, "s2orc.read_issues"]
        }
    return dg.MaterializeResult(
        metadata={"warehouse": str(settings.warehouse), "rows": dg.MetadataValue.json(counts)}
    )


@dg.asset_check(asset=s2orc_warehouse_views, description="Candidates and rejections add up to the papers.")
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


# warehouse relation -> the asset that creates it; SQL models add themselves below.
RELATION_ASSETS: dict[str, dg.AssetKey] = {
    **{view: s2orc_warehouse_views.key for view in S2ORC_VIEWS},
    "s2orc.read_issues": s2orc_warehouse_views.key,
}


def sql_model_key(model: SqlModel) -> dg.AssetKey:
    return dg.AssetKey(["sql", model.schema, model.name])


def build_sql_model_asset(model: SqlModel, relation_assets: dict[str, dg.AssetKey]) -> dg.AssetsDefinition:
    deps = sorted({relation_assets[name] for name in model.upstream if name in relation_assets}, key=str)
    unknown = sorted(name for name in model.upstream if name not in relation_assets)
    description = model.description
    if unknown:
        description += f" (reads relations no asset creates: {', '.join(unknown)})"

    @dg.asset(
        key=sql_model_key(model),
        deps=deps,
        group_name="analytics",
        kinds={"duckdb", "sql"},
        pool=WAREHOUSE_POOL,
        automation_condition=dg.AutomationCondition.eager(),
        description=description,
        metadata={"sql": dg.MetadataValue.md(f"```sql\n{model.sql}\n```"), "file": str(model.path)},
    )
    def sql_model(citeworth: CiteworthSettings) -> dg.MaterializeResult:
        settings = citeworth.settings
        with warehouse.writing(settings.warehouse) as connection:
            rows = warehouse.create_relation(connection, model.relation, model.sql, model.materialized)
            preview = connection.sql(f"SELECT * FROM {model.relation} LIMIT 20").to_arrow_table()
        metadata = {"relation": model.relation, "materialized": model.materialized}
        if rows is not None:
            metadata["rows"] = rows
        metadata["preview"] = dg.MetadataValue.md(_markdown_table(preview))
        return dg.MaterializeResult(metadata=metadata)

    return sql_model


def _markdown_table(table) -> str:
    if table.num_rows == 0:
        return "(no rows)"
    header = "| " + " | ".join(table.column_names) + " |"
    rule = "|" + "---|" * len(table.column_names)
    body = ["| " + " | ".join(str(value) for value in row.values()) + " |" for row in table.to_pylist()]
    return "\n".join([header, rule, *body])


def build_sql_model_assets(folder: Path = SQL_MODELS_DIR) -> list[dg.AssetsDefinition]:
    models = load_models(folder) if folder.is_dir() else []
    relation_assets = {**RELATION_ASSETS, **{model.relation: sql_model_key(model) for model in models}}
    return [build_sql_model_asset(model, relation_assets) for model in models]
