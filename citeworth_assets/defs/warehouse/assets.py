"""The DuckDB warehouse: views over the lake, and the analysts' SQL models as assets.

Every asset here writes the warehouse file, so all are in the ``warehouse`` pool (limit 1 in the
shipped instance configuration) on top of the warehouse's own writer lock.
"""


from pathlib import Path

import dagster as dg
import pyarrow as pa

from citeworth_assets.lib.s2orc.candidate_filter import REJECTION_SCHEMA
from citeworth_assets.lib.citeworth.cleaning import PARAGRAPH_SCHEMA as CITEWORTH_PARAGRAPH_SCHEMA
from citeworth_assets.lib.citeworth.cleaning import REJECTION_SCHEMA as CITEWORTH_REJECTION_SCHEMA
from citeworth_assets.lib.citeworth.dataset import DATASET_SCHEMA, STATISTICS_SCHEMA
from citeworth_assets.lib.citeworth.quality import COMPARISON_SCHEMA
from citeworth_assets.lib.models import tables as model_tables
from citeworth_assets.lib import warehouse
from citeworth_assets.lib.citesum import tables as citesum_tables
from citeworth_assets.lib.manual_eval import evaluation as manual_eval
from citeworth_assets.lib.s2orc.records import PAPER_SCHEMA, PARAGRAPH_SCHEMA, READ_ISSUE_SCHEMA
from citeworth_assets.lib.sql_models import SqlModel, load_models
from citeworth_assets.resources import CiteworthSettings

JUDGEMENTS_VIEW = "citeworth.manual_eval_judgements"
SQL_MODELS_DIR = Path(__file__).resolve().parents[3] / "dbt_like_sql"
WAREHOUSE_POOL = "warehouse"

def lake_views_asset(
    name: str,
    views: dict[str, tuple[str, pa.Schema]],
    derived: dict[str, str],
    deps: list,
    description: str,
    judgements: bool = False,
) -> dg.AssetsDefinition:
    """An asset that (re)creates warehouse views over lake tables, and views derived from them by SQL.

    With ``judgements``, also ``citeworth.manual_eval_judgements`` over the annotators' JSON-lines files.
    """

    @dg.asset(
        name=name,
        group_name="warehouse",
        kinds={"duckdb"},
        pool=WAREHOUSE_POOL,
        deps=deps,
        automation_condition=dg.AutomationCondition.eager(),
        description=description,
    )
    def views_asset(citeworth: CiteworthSettings) -> dg.MaterializeResult:
        settings = citeworth.settings
        settings.require_data()
        with warehouse.writing(settings.warehouse) as connection:
            for view, (table, schema) in views.items():
                warehouse.create_lake_view(connection, view, settings.lake, table, schema)
            for view, sql in derived.items():
                warehouse.create_relation(connection, view, sql)
            if judgements:
                warehouse.create_relation(connection, JUDGEMENTS_VIEW, manual_eval.judgements_sql(settings.data))
            names = [*views, *derived, *([JUDGEMENTS_VIEW] if judgements else [])]
            counts = {view: warehouse.first_row(connection, f"SELECT count(*) FROM {view}")[0] for view in names}
        return dg.MaterializeResult(metadata={"warehouse": str(settings.warehouse), "rows": dg.MetadataValue.json(counts)})

    RELATION_ASSETS.update({view: views_asset.key for view in [*views, *derived, *([JUDGEMENTS_VIEW] if judgements else [])]})
    return views_asset


# warehouse relation -> the asset that creates it (views assets and SQL models register themselves).
RELATION_ASSETS: dict[str, dg.AssetKey] = {}

s2orc_warehouse_views = lake_views_asset(
    "s2orc_warehouse_views",
    views={
        "s2orc.papers": ("s2orc_papers", PAPER_SCHEMA),
        "s2orc.candidate_papers": ("s2orc_candidate_papers", PAPER_SCHEMA),
        "s2orc.paper_rejections": ("s2orc_paper_rejections", REJECTION_SCHEMA),
        "s2orc.paragraphs": ("s2orc_paragraphs", PARAGRAPH_SCHEMA),
        "s2orc.metadata_issues": ("s2orc_metadata_issues", READ_ISSUE_SCHEMA),
        "s2orc.pdf_parse_issues": ("s2orc_pdf_parse_issues", READ_ISSUE_SCHEMA),
    },
    derived={
        "s2orc.read_issues": "SELECT 'metadata' AS source, * FROM s2orc.metadata_issues "
        "UNION ALL BY NAME SELECT 'pdf_parses' AS source, * FROM s2orc.pdf_parse_issues",
    },
    deps=["s2orc_papers", "s2orc_candidate_papers", "s2orc_paper_rejections", "s2orc_paragraphs"],
    description="Warehouse schema s2orc: views over the S2ORC lake tables (all shards) and the read issues.",
)

citeworth_warehouse_views = lake_views_asset(
    "citeworth_warehouse_views",
    views={
        "citeworth.paragraphs": ("citeworth_paragraphs", CITEWORTH_PARAGRAPH_SCHEMA),
        "citeworth.rejections": ("citeworth_rejections", CITEWORTH_REJECTION_SCHEMA),
        "citeworth.dataset": ("citeworth_dataset", DATASET_SCHEMA),
        "citeworth.statistics": ("citeworth_statistics", STATISTICS_SCHEMA),
        "citeworth.rule_comparison": ("citeworth_rule_comparison", COMPARISON_SCHEMA),
        "citeworth.manual_eval_sample": ("citeworth_manual_eval_sample", manual_eval.SAMPLE_SCHEMA),
        "citeworth.manual_eval_results": ("citeworth_manual_eval_results", manual_eval.RESULT_SCHEMA),
    },
    derived={
        "citeworth.sentences": (
            "SELECT d.rule_set, d.paper_id, d.section_idx, s.i - 1 AS sentence_idx, d.field, d.split, "
            "d.samples[s.i].label AS label, d.samples[s.i].label = 'check-worthy' AS cite_worthy, "
            "d.samples[s.i].text AS text, d.samples[s.i].original_text AS original_text, "
            "d.samples[s.i].citation_text AS citation_text, d.shard, d.line, d.byte_offset "
            "FROM citeworth.dataset AS d, range(1, len(d.samples) + 1) AS s(i)"
        ),
    },
    deps=[
        "citeworth_paragraphs",
        "citeworth_rejections",
        "citeworth_dataset",
        "citeworth_statistics",
        "citeworth_rule_comparison",
        "citeworth_manual_eval_sample",
        "citeworth_manual_eval_results",
    ],
    judgements=True,
    description="Warehouse schema citeworth: accepted paragraphs and rejections of every rule set, the dataset, "
    "one row per sentence (label, field, split), Table 2 statistics and the rule-set comparison.",
)


citesum_warehouse_views = lake_views_asset(
    "citesum_warehouse_views",
    views={
        "citesum.candidates": ("citesum_candidates", citesum_tables.CANDIDATE_SCHEMA),
        "citesum.drops": ("citesum_drops", citesum_tables.DROP_SCHEMA),
        "citesum.examples": ("citesum_dataset", citesum_tables.EXAMPLE_SCHEMA),
        "citesum.statistics": ("citesum_statistics", citesum_tables.STATISTICS_SCHEMA),
        "citesum.disciplines": ("citesum_disciplines", citesum_tables.DISCIPLINE_SCHEMA),
        "citesum.baselines": ("citesum_baselines", citesum_tables.BASELINE_SCHEMA),
    },
    derived={
        "citesum.threshold_report": (
            "SELECT count(*) AS candidates, count(*) FILTER (rouge1_recall < 50) AS below_rouge1_50, "
            "count(*) FILTER (rouge2_recall < 20) AS below_rouge2_20, count(*) FILTER (rougeL_recall < 40) AS below_rougeL_40, "
            "count(*) FILTER (kept) AS kept, round(avg(rouge1_recall) FILTER (kept), 1) AS kept_rouge1_recall, "
            "round(avg(rouge2_recall) FILTER (kept), 1) AS kept_rouge2_recall, "
            "round(avg(rougeL_recall) FILTER (kept), 1) AS kept_rougeL_recall FROM citesum.candidates"
        ),
    },
    deps=["citesum_candidates", "citesum_drops", "citesum_dataset", "citesum_baselines"],
    description="Warehouse schema citesum: candidates with ROUGE recalls, drops, the examples with their split, Table 3 "
    "statistics, the discipline distribution, the extractive baselines and the ROUGE filter report.",
)


models_warehouse_views = lake_views_asset(
    "models_warehouse_views",
    views={
        "citeworth.model_comparison": ("citeworth_model_comparison", model_tables.COMPARISON_SCHEMA),
        "citeworth.domain_matrix": ("citeworth_domain_matrix", model_tables.DOMAIN_SCHEMA),
    },
    derived={},
    deps=["citeworth_model_comparison", "citeworth_domain_matrix"],
    description="Warehouse views of the model comparison (Table 4) and the cross-field matrix (Table 5).",
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


warehouse_assets = [s2orc_warehouse_views, citeworth_warehouse_views, citesum_warehouse_views, models_warehouse_views]
warehouse_checks = [s2orc_filter_accounts_for_every_paper]


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
        metadata["preview"] = dg.MetadataValue.md(warehouse.markdown_table(preview))
        return dg.MaterializeResult(metadata=metadata)

    return sql_model


def build_sql_model_assets(folder: Path = SQL_MODELS_DIR) -> list[dg.AssetsDefinition]:
    models = load_models(folder) if folder.is_dir() else []
    relation_assets = {**RELATION_ASSETS, **{model.relation: sql_model_key(model) for model in models}}
    return [build_sql_model_asset(model, relation_assets) for model in models]
