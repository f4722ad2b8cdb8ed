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
import pyarrow as pa

from citeworth_assets.defs.automation import follows_shards
from citeworth_assets.lib import warehouse
from citeworth_assets.lib.arxiv import resolution as arxiv_resolution
from citeworth_assets.lib.arxiv import schemas as arxiv_schemas
from citeworth_assets.lib.arxiv import duplicates as arxiv_duplicates
from citeworth_assets.lib.citesum import tables as citesum_tables
from citeworth_assets.lib.citeworth.cleaning import (
    PARAGRAPH_SCHEMA as CITEWORTH_PARAGRAPH_SCHEMA,
)
from citeworth_assets.lib.citeworth.cleaning import (
    REJECTION_SCHEMA as CITEWORTH_REJECTION_SCHEMA,
)
from citeworth_assets.lib.citeworth.dataset import DATASET_SCHEMA, STATISTICS_SCHEMA
from citeworth_assets.lib.citeworth.quality import COMPARISON_SCHEMA
from citeworth_assets.lib.citeworth.reasons import reason_table
from citeworth_assets.lib.citrec import tables as citrec_tables
from citeworth_assets.lib.mag import schemas as mag_schemas
from citeworth_assets.lib.mag import tables as mag_tables
from citeworth_assets.lib.manual_eval import evaluation as manual_eval
from citeworth_assets.lib.models import tables as model_tables
from citeworth_assets.lib.s2orc.candidate_filter import REJECTION_SCHEMA
from citeworth_assets.lib.s2orc.duplicates import DUPLICATE_SCHEMA
from citeworth_assets.lib.s2orc.records import (
    PAPER_SCHEMA,
    PARAGRAPH_SCHEMA,
    READ_ISSUE_SCHEMA,
)
from citeworth_assets.lib.sciqfs import lake_tables as sciqfs_tables
from citeworth_assets.lib.sciqfs import statistics as sciqfs_statistics
from citeworth_assets.lib.sciqfs import tables as sciqfs_clean
from citeworth_assets.lib.sql_models import SqlModel, load_models
from citeworth_assets.resources import CiteworthSettings

SQL_MODELS_DIR = Path(str(files("dbt_like_sql")))
WAREHOUSE_POOL = "warehouse"
LAKE_SCHEMA = "lake"
JUDGEMENT_EVENTS = "judgement_events"  # the annotators' files, not a lake table; written outside Dagster
DROP_REASONS = "citeworth_drop_reasons"  # the registry of CiteWorth drop reasons, from the code

# lake table -> (its columns, the asset that writes it)
LAKE_TABLES: dict[str, tuple[pa.Schema, str]] = {
    "s2orc_papers": (PAPER_SCHEMA, "s2orc_papers"),
    "s2orc_metadata_issues": (READ_ISSUE_SCHEMA, "s2orc_papers"),
    "s2orc_candidate_papers": (PAPER_SCHEMA, "s2orc_candidate_papers"),
    "s2orc_paper_rejections": (REJECTION_SCHEMA, "s2orc_paper_rejections"),
    "s2orc_paragraphs": (PARAGRAPH_SCHEMA, "s2orc_paragraphs"),
    "s2orc_pdf_parse_issues": (READ_ISSUE_SCHEMA, "s2orc_paragraphs"),
    "s2orc_duplicate_papers": (DUPLICATE_SCHEMA, "s2orc_duplicate_papers"),
    "citeworth_paragraphs": (CITEWORTH_PARAGRAPH_SCHEMA, "citeworth_paragraphs"),
    "citeworth_rejections": (CITEWORTH_REJECTION_SCHEMA, "citeworth_rejections"),
    "citeworth_dataset": (DATASET_SCHEMA, "citeworth_dataset"),
    "citeworth_statistics": (STATISTICS_SCHEMA, "citeworth_statistics"),
    "citeworth_rule_comparison": (COMPARISON_SCHEMA, "citeworth_rule_comparison"),
    "citeworth_manual_eval_sample": (manual_eval.SAMPLE_SCHEMA, "citeworth_manual_eval_sample"),
    "citeworth_manual_eval_results": (manual_eval.RESULT_SCHEMA, "citeworth_manual_eval_results"),
    "citeworth_model_comparison": (model_tables.COMPARISON_SCHEMA, "citeworth_model_comparison"),
    "citeworth_domain_matrix": (model_tables.DOMAIN_SCHEMA, "citeworth_domain_matrix"),
    "citesum_cited_abstracts": (citesum_tables.CITED_ABSTRACT_SCHEMA, "citesum_cited_abstracts"),
    "citesum_candidates": (citesum_tables.CANDIDATE_SCHEMA, "citesum_candidates"),
    "citesum_drops": (citesum_tables.DROP_SCHEMA, "citesum_drops"),
    "citesum_dataset": (citesum_tables.EXAMPLE_SCHEMA, "citesum_dataset"),
    "citesum_statistics": (citesum_tables.STATISTICS_SCHEMA, "citesum_dataset"),
    "citesum_disciplines": (citesum_tables.DISCIPLINE_SCHEMA, "citesum_dataset"),
    "citesum_baselines": (citesum_tables.BASELINE_SCHEMA, "citesum_baselines"),
    "citrec_contexts": (citrec_tables.CONTEXT_SCHEMA, "citrec_dataset"),
    "citrec_candidates": (citrec_tables.CANDIDATE_SCHEMA, "citrec_dataset"),
    "citrec_dataset_statistics": (citrec_tables.STATISTICS_SCHEMA, "citrec_dataset"),
    "citrec_results": (citrec_tables.RESULT_SCHEMA, "citrec_evaluation"),
    "arxiv_papers": (arxiv_schemas.PAPER_SCHEMA, "arxiv_papers"),
    "arxiv_paragraphs": (arxiv_schemas.PARAGRAPH_SCHEMA, "arxiv_paragraphs"),
    "arxiv_references": (arxiv_schemas.REFERENCE_SCHEMA, "arxiv_references"),
    "arxiv_read_issues": (READ_ISSUE_SCHEMA, "arxiv_papers"),
    "arxiv_resolutions": (arxiv_resolution.RESOLUTION_SCHEMA, "arxiv_resolutions"),
    "arxiv_contexts": (arxiv_schemas.CONTEXT_SCHEMA, "arxiv_contexts"),
    "arxiv_duplicate_papers": (arxiv_duplicates.DUPLICATE_SCHEMA, "arxiv_duplicate_papers"),
    "arxiv_field_papers": (mag_tables.FIELD_PAPER_SCHEMA, "arxiv_field_papers"),
    "works": (mag_schemas.WORK_SCHEMA, "works"),
    "arxiv_titles": (mag_tables.ARXIV_TITLE_SCHEMA, "works"),
    "catalogue_read_issues": (READ_ISSUE_SCHEMA, "works"),
    "work_references": (mag_schemas.WORK_REFERENCE_SCHEMA, "work_references"),
    "mag_fields_of_study": (mag_tables.FIELD_OF_STUDY_SCHEMA, "mag_fields_of_study"),
    "sciqfs_papers": (sciqfs_clean.PAPERS_SCHEMA, "sciqfs_tables"),
    "sciqfs_references": (sciqfs_clean.REFERENCES_SCHEMA, "sciqfs_tables"),
    "sciqfs_citations": (sciqfs_clean.CITATIONS_SCHEMA, "sciqfs_tables"),
    "sciqfs_examples": (sciqfs_tables.EXAMPLE_SCHEMA, "sciqfs_examples"),
    "sciqfs_statistics": (sciqfs_statistics.STATISTICS_SCHEMA, "sciqfs_examples"),
    "sciqfs_baselines": (sciqfs_tables.BASELINE_SCHEMA, "sciqfs_baselines"),
    "sciqfs_baseline_examples": (sciqfs_tables.BASELINE_EXAMPLE_SCHEMA, "sciqfs_baselines"),
}


def create_sources(connection, settings, relations) -> None:
    """(Re)create the ``lake.*`` relations a model reads."""
    for relation in sorted(relations):
        schema, table = relation.split(".")
        if schema != LAKE_SCHEMA:
            continue
        if table == JUDGEMENT_EVENTS:
            warehouse.create_relation(connection, relation, manual_eval.judgement_events_sql(settings.data))
        elif table == DROP_REASONS:
            warehouse.replace_table(connection, relation, reason_table())
        else:
            warehouse.create_lake_view(connection, relation, settings.lake, table, LAKE_TABLES[table][0])


def model_key(model: SqlModel) -> dg.AssetKey:
    return dg.AssetKey([model.schema, model.name])


def upstream_assets(model: SqlModel, model_keys: dict[str, dg.AssetKey]) -> tuple[list[dg.AssetKey], list[str]]:
    """The assets a model reads, and the relations it reads that nothing here creates."""
    deps, unknown = set(), []
    for relation in sorted(model.upstream):
        schema, table = relation.split(".")
        if schema == LAKE_SCHEMA and table in LAKE_TABLES:
            deps.add(dg.AssetKey(LAKE_TABLES[table][1]))
        elif relation in model_keys:
            deps.add(model_keys[relation])
        elif relation not in (f"{LAKE_SCHEMA}.{JUDGEMENT_EVENTS}", f"{LAKE_SCHEMA}.{DROP_REASONS}"):
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
        automation_condition=follows_shards(),
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
