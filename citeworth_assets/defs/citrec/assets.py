"""Local citation recommendation (Saier 2019 ch. 5, §6.1-6.2): the evaluation data set from the arXiv context
export, the trained recommenders, and their offline evaluation tracked in MLflow.

Training and evaluation are manual (no automation condition): materialize them after the data set changes.
"""

import base64
import time

import dagster as dg

from citeworth_assets.defs.citrec.settings import (
    ARXIV_EXPORT,
    CONTEXT_EXPORT_ASSET,
    CitrecResource,
)
from citeworth_assets.lib import lake
from citeworth_assets.lib.citrec import tables
from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.warehouse import markdown_table
from citeworth_assets.resources import PlatformResource

pa = lazy_module("pyarrow")

MANUAL = "Manual: materialize it yourself (the citrec_job, or this asset in the UI); nothing triggers it."


def manual_asset(deps: list, kinds: set[str], description: str):
    """A citation-recommendation asset: manual (no automation condition), its description ending in :data:`MANUAL`."""
    return dg.asset(deps=deps, group_name="citrec", kinds=kinds, description=f"{description} {MANUAL}")


def context_export(citeworth: PlatformResource):
    """The arXiv context CSV and its catalogue (None when the export has none: years then come from arXiv ids)."""
    folder = citeworth.settings.export_dir(ARXIV_EXPORT)
    contexts, catalogue = folder / "contexts.csv", folder / "catalogue.jsonl"
    if not contexts.is_file():
        raise FileNotFoundError(f"{contexts} does not exist: materialize {CONTEXT_EXPORT_ASSET} first")
    return contexts, catalogue if catalogue.is_file() else None


def lake_partition(citeworth: PlatformResource, table: str, name: str) -> "pa.Table":
    return lake.read_partition(citeworth.settings.lake, table, name, dimension=tables.DIMENSION)


def _write(citeworth: PlatformResource, table: str, schema: "pa.Schema", rows, name: str) -> int:
    return lake.write_partition(citeworth.settings.lake, table, schema, rows, name, dimension=tables.DIMENSION)


def load_dataset(citeworth: PlatformResource, name: str):
    """The data set as built (its own settings, not today's), with its candidates table and statistics row."""
    statistics = lake_partition(citeworth, "citrec_dataset_statistics", name).to_pylist()[0]
    candidates = lake_partition(citeworth, "citrec_candidates", name)
    dataset = tables.dataset_from_tables(
        tables.settings_from_statistics(statistics), candidates, lake_partition(citeworth, "citrec_contexts", name)
    )
    return dataset, candidates, statistics


@dg.asset(
    deps=[CONTEXT_EXPORT_ASSET],
    group_name="citrec",
    kinds={"parquet"},
    description="The offline evaluation data set (Saier 2019 §6.1, Appendix C) from the arXiv context export: "
    "candidates are cited works with at least min_contexts training contexts from min_citing_papers citing papers; a "
    "temporal split by the citing paper's year (train <= split_year < test); test items with their adjacent citations. "
    "Table 6 statistics; unusable CSV lines are counted, never fatal. Settings: the citrec resource.",
)
def citrec_dataset(
    context: dg.AssetExecutionContext, citrec: CitrecResource, citeworth: PlatformResource
) -> dg.MaterializeResult:
    from citeworth_assets.lib.citrec.contexts import read_catalogue
    from citeworth_assets.lib.citrec.dataset import dataset_from_csv
    from citeworth_assets.lib.citrec.run import catalogue_field_names
    from citeworth_assets.lib.read_issues import IssueLog

    settings = citrec.eval_settings
    contexts_csv, catalogue_path = context_export(citeworth)
    issues = IssueLog()
    catalogue = read_catalogue(catalogue_path, issues) if catalogue_path else None
    dataset = dataset_from_csv([contexts_csv], settings, catalogue, issues)
    _write(citeworth, "citrec_contexts", tables.context_schema(), tables.context_rows(dataset), settings.name)
    _write(
        citeworth,
        "citrec_candidates",
        tables.candidate_schema(),
        tables.candidate_rows(dataset, catalogue),
        settings.name,
    )
    row = tables.statistics_row(dataset, issues, catalogue_field_names(catalogue))
    _write(citeworth, "citrec_dataset_statistics", tables.statistics_schema(), [row], settings.name)
    if issues.total:  # one line, however many contexts are unusable
        first = issues.issues[0] if issues.issues else None
        context.log.warning(f"{issues.total} unusable contexts or catalogue rows {issues.counts}; first: {first}")
    table_6 = pa.Table.from_pylist([{k: v for k, v in row.items() if k != "catalogue_fields"}])
    return dg.MaterializeResult(
        metadata={
            "dataset": settings.name,
            "candidates": row["candidates"],
            "test_items": row["test_items"],
            "table_6": dg.MetadataValue.md(markdown_table(table_6)),
            "read_issues": dg.MetadataValue.json(issues.counts),
            "contexts_csv": dg.MetadataValue.path(str(contexts_csv)),
            "catalogue": dg.MetadataValue.path(str(catalogue_path))
            if catalogue_path
            else "none (years from arXiv ids)",
        }
    )


@manual_asset(
    [citrec_dataset],
    {"scikitlearn"},
    "Fit every configured recommender (bow, bm25, fos, bow+fosboost by default; np, npmarker, claim, "
    "claim+bow when listed in the citrec resource's models) on the candidates' training contexts and save the index "
    "under <data>/models/citrec/<dataset>/, which `citeworth recommend` loads.",
)
def citrec_models(
    context: dg.AssetExecutionContext, citrec: CitrecResource, citeworth: PlatformResource
) -> dg.MaterializeResult:
    from citeworth_models.citrec.nlp import ParserUnavailable
    from citeworth_models.citrec.registry import create_model
    from citeworth_models.citrec.store import IndexWriter

    names = citrec.model_names
    dataset, candidates, statistics = load_dataset(citeworth, citrec.eval_settings.name)
    titles = dict(zip(candidates.column("work").to_pylist(), candidates.column("title").to_pylist()))
    root = citeworth.settings.model_dir("citrec")
    fit_seconds, skipped = {}, {}
    texts = dataset.candidate_texts()
    with IndexWriter(root, dataset.settings.name, dataset.candidates, [titles[w] for w in dataset.candidates]) as index:
        for name in names:
            model = create_model(name, statistics["catalogue_fields"])
            started = time.perf_counter()
            try:
                if dataset.candidates:
                    model.fit(texts)
            except ParserUnavailable as error:
                skipped[name] = str(error)
                context.log.warning(f"{name} skipped: {error}")
                continue
            fit_seconds[name] = round(time.perf_counter() - started, 2)
            index.add(model)
        index.finish(
            {
                "settings": tables.settings_from_statistics(statistics).__dict__,
                "fit_seconds": fit_seconds,
                "skipped": skipped,
            }
        )
    return dg.MaterializeResult(
        metadata={
            "index": dg.MetadataValue.path(str(index.target)),
            "models": dg.MetadataValue.json(index.models),
            "fit_seconds": dg.MetadataValue.json(fit_seconds),
            "skipped": dg.MetadataValue.json(skipped),
            "candidates": len(dataset.candidates),
        }
    )


def _embedded_png(path) -> str:
    return f"![metrics against k](data:image/png;base64,{base64.b64encode(path.read_bytes()).decode()})"


@manual_asset(
    [citrec_models],
    {"mlflow", "parquet"},
    "Rank the candidates for every test item with each trained model: Recall, MRR, MAP and NDCG at k = "
    "1..10, adjacent citations 0.5-relevant (Saier 2019 §6.2). One MLflow run per model and data set (experiment "
    "citrec; params = the data set's settings), results in long format (citrec.results) and the plot of each "
    "metric against k (Figures 10-13) as a run artifact and in this asset's metadata.",
)
def citrec_evaluation(citrec: CitrecResource, citeworth: PlatformResource) -> dg.MaterializeResult:
    from citeworth_assets.lib.citrec.tracking import log_artifact, log_evaluation_run
    from citeworth_models.citrec.evaluate import evaluate_model
    from citeworth_models.citrec.plots import plot_metrics
    from citeworth_models.citrec.store import latest_index

    settings = citeworth.settings
    name = citrec.eval_settings.name
    dataset, _, statistics = load_dataset(citeworth, name)
    index = latest_index(settings.model_dir("citrec"), name)
    if index.candidates != dataset.candidates:
        raise ValueError(f"the index {index.folder} was trained on other candidates: materialize citrec_models again")
    params = {**{k: v for k, v in statistics.items() if k != "catalogue_fields"}, "index": str(index.folder)}
    rows, runs = [], {}
    for model_name in index.models:
        model_rows = evaluate_model(index.load(model_name), dataset, fit=False)
        run_id = log_evaluation_run(
            settings.tracking_uri, settings.mlruns, model_name, name, {**params, "model": model_name}, model_rows
        )
        runs[model_name] = run_id
        rows += [{**row, "run_id": run_id} for row in model_rows]
    _write(citeworth, "citrec_results", tables.result_schema(), rows, name)
    results = pa.Table.from_pylist(rows, schema=tables.result_schema())
    metadata = {
        "dataset": name,
        "test_items": statistics["test_items"],
        "runs": dg.MetadataValue.json(runs),
        "tracking_uri": settings.tracking_uri,
    }
    at_10 = [{"model": r["model"], "metric": r["metric"], "value": round(r["value"], 4)} for r in rows if r["k"] == 10]
    metadata["at_k_10"] = dg.MetadataValue.md(markdown_table(pa.Table.from_pylist(at_10), limit=len(at_10) or 1))
    if rows:
        plot = plot_metrics(results, settings.export_dir("citrec") / name / "metrics_against_k.png", name)
        for run_id in runs.values():
            log_artifact(settings.tracking_uri, run_id, plot)
        metadata["plot"] = dg.MetadataValue.md(_embedded_png(plot))
        metadata["plot_file"] = dg.MetadataValue.path(str(plot))
    return dg.MaterializeResult(metadata=metadata)


citrec_assets = [citrec_dataset, citrec_models, citrec_evaluation]
