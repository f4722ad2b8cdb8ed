"""MLflow tracking: a thin layer of our own over the ``mlflow`` client (no Dagster import).

By default runs go to a SQLite store under the data root (``<data>/mlflow.db``) with artifacts in
``<data>/mlruns/``; any tracking URI can be configured instead. ``mlflow ui --backend-store-uri
sqlite:///<data>/mlflow.db`` shows them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

EXPERIMENT = "citeworth"


def dataset_version(path: Path) -> str:
    """A content hash of the dataset file a model was trained on (its version in the runs)."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()[:16]


def _create_store(tracking_uri: str, artifacts: Path) -> None:
    """A new SQLite store created with its artifact root under the data root: otherwise MLflow gives the Default
    experiment ``./mlruns`` of whatever directory the first run happened in."""
    database = Path(tracking_uri.removeprefix("sqlite:///"))
    if tracking_uri.startswith("sqlite:///") and not database.exists():
        from mlflow.store.tracking.sqlalchemy_store import SqlAlchemyStore

        database.parent.mkdir(parents=True, exist_ok=True)
        SqlAlchemyStore(tracking_uri, artifacts.resolve().as_uri())


def _experiment_id(tracking_uri: str, artifacts: Path | None) -> str:
    import mlflow

    if artifacts is not None:
        _create_store(tracking_uri, artifacts)
    mlflow.set_tracking_uri(tracking_uri)
    experiment = mlflow.get_experiment_by_name(EXPERIMENT)
    if experiment is not None:
        return experiment.experiment_id
    location = artifacts.resolve().as_uri() if artifacts is not None else None
    return mlflow.create_experiment(EXPERIMENT, artifact_location=location)


@contextmanager
def tracked_run(tracking_uri: str, run_name: str, tags: dict, artifacts: Path | None = None) -> Iterator[object]:
    """An MLflow run that ends when the block ends (failed if the block raises)."""
    import mlflow

    experiment_id = _experiment_id(tracking_uri, artifacts)
    with mlflow.start_run(run_name=run_name, experiment_id=experiment_id, tags=tags) as run:
        yield run


def latest_runs(tracking_uri: str) -> list[dict]:
    """The latest finished run of each model (tag ``model``): its run id, scores and parameters."""
    from mlflow.tracking import MlflowClient

    client = MlflowClient(tracking_uri)
    experiment = client.get_experiment_by_name(EXPERIMENT)
    if experiment is None:
        return []
    latest: dict[str, dict] = {}
    for run in client.search_runs(
        [experiment.experiment_id],
        filter_string="attributes.status = 'FINISHED'",
        order_by=["attributes.start_time DESC"],
    ):
        model = run.data.tags.get("model")
        if model and model not in latest:
            latest[model] = {
                "model": model,
                "run_id": run.info.run_id,
                "precision": run.data.metrics.get("test_precision"),
                "recall": run.data.metrics.get("test_recall"),
                "f1": run.data.metrics.get("test_f1"),
                "dataset_version": run.data.params.get("dataset_version"),
            }
    return sorted(latest.values(), key=lambda row: row["model"])
