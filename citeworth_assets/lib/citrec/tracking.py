"""MLflow runs of the citation recommendation evaluation: one run per model and data set (no Dagster import).

Runs go to their own experiment, ``citrec``, so that the cite-worthiness comparison (which reads the latest
run per ``model`` tag of the ``citeworth`` experiment) never mistakes a recommender for a classifier. Each
metric is logged twice: ``recall_at_10`` for comparing runs in a table, and ``recall`` with step = k, which
MLflow's run page draws against k.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

EXPERIMENT = "citrec"


def experiment_id(tracking_uri: str, artifacts: Path | None) -> str:
    import mlflow

    mlflow.set_tracking_uri(tracking_uri)
    experiment = mlflow.get_experiment_by_name(EXPERIMENT)
    if experiment is not None:
        return experiment.experiment_id
    location = (artifacts / EXPERIMENT).resolve().as_uri() if artifacts is not None else None
    return mlflow.create_experiment(EXPERIMENT, artifact_location=location)


def log_evaluation_run(
    tracking_uri: str, artifacts: Path | None, model: str, dataset: str, params: Mapping, rows: Iterable[Mapping]
) -> str:
    """One finished run: ``params`` (the data set's settings and the model's), every (metric, k) of ``rows``,
    written in one batch (a round trip per metric would cost seconds per run with the SQLite store)."""
    import time

    import mlflow
    from mlflow.entities import Metric, Param

    rows = list(rows)
    run_experiment = experiment_id(tracking_uri, artifacts)
    tags = {"citrec_model": model, "dataset": dataset}
    now = int(time.time() * 1000)
    metrics = [Metric(f"{row['metric']}_at_{row['k']}", row["value"], now, 0) for row in rows]
    metrics += [Metric(row["metric"], row["value"], now, row["k"]) for row in rows]
    metrics += [Metric("test_items_ranked", rows[0]["items"], now, 0)] if rows else []
    with mlflow.start_run(run_name=f"{model} on {dataset}", experiment_id=run_experiment, tags=tags) as run:
        mlflow.tracking.MlflowClient(tracking_uri).log_batch(
            run.info.run_id, metrics=metrics, params=[Param(key, str(value)) for key, value in params.items()]
        )
    return run.info.run_id


def log_artifact(tracking_uri: str, run_id: str, path: Path, folder: str = "plots") -> None:
    """Attach a file to a finished run (the plot covers every model, so it is drawn after all runs)."""
    from mlflow.tracking import MlflowClient

    MlflowClient(tracking_uri).log_artifact(run_id, str(path), folder)
