"""MLflow tracking: a thin layer of our own over the ``mlflow`` client (no Dagster import).

By default runs go to a SQLite store under the data root (``<data>/mlflow.db``) with artifacts in
``<data>/mlruns/``; any tracking URI can be configured instead. ``mlflow ui --backend-store-uri
sqlite:///<data>/mlflow.db`` shows them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
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


def _experiment_id(tracking_uri: str, artifacts: Path | None, name: str = EXPERIMENT) -> str:
    import mlflow

    if artifacts is not None:
        _create_store(tracking_uri, artifacts)
    mlflow.set_tracking_uri(tracking_uri)
    experiment = mlflow.get_experiment_by_name(name)
    if experiment is not None:
        return experiment.experiment_id
    location = (artifacts if name == EXPERIMENT else artifacts / name).resolve().as_uri() if artifacts else None
    return mlflow.create_experiment(name, artifact_location=location)


@contextmanager
def tracked_run(
    tracking_uri: str, run_name: str, tags: dict, artifacts: Path | None = None, experiment: str = EXPERIMENT
) -> Iterator[object]:
    """An MLflow run of ``experiment`` that ends when the block ends (failed if the block raises)."""
    import mlflow

    experiment_id = _experiment_id(tracking_uri, artifacts, experiment)
    with mlflow.start_run(run_name=run_name, experiment_id=experiment_id, tags=tags) as run:
        yield run


def train_tracked(
    name: str,
    data_path: Path,
    model_dir: Path,
    rule_set: str,
    tracking: tuple[str, Path | None],
    encoder_dir: str | None = None,
    params: Mapping | None = None,
    device: Mapping | None = None,
) -> tuple[str, dict]:
    """Train and evaluate one cite-worthiness model inside an MLflow run: the dataset version, rule set, device and
    encoder as params, dev F1 per epoch, test scores and the model artifact; ``tracking`` is (tracking URI, artifact
    root). Returns the run id and the training result."""
    import mlflow

    from citeworth_assets.lib.progress import epoch_reporter
    from citeworth_models.registry import MODELS, train_and_evaluate

    params, device = dict(params or {}), dict(device or {"training_device": "cpu"})
    uri, artifacts = tracking
    with tracked_run(uri, name, {"model": name, "rule_set": rule_set}, artifacts) as run:
        context_params = {
            "dataset_version": dataset_version(data_path),
            "rule_set": rule_set,
            **device,
            "encoder": encoder_dir or "none",
        }
        mlflow.log_params(context_params)
        result = train_and_evaluate(
            name,
            data_path,
            model_dir,
            encoder_dir=encoder_dir,
            params=params,
            on_epoch=epoch_reporter(
                name,
                {**MODELS[name].defaults, **params}.get("epochs", 1),
                lambda epoch, f1: mlflow.log_metric("dev_f1", f1, step=epoch),
            ),
        )
        mlflow.log_metric("test_predicted_positive_share", result["predicted_positive_share"])
        mlflow.log_params({key: value for key, value in result["params"].items() if key not in context_params})
        mlflow.log_metrics({f"test_{metric}": value for metric, value in result["test"].items()})
        mlflow.log_artifacts(str(result["artifact_dir"]), "model")
    return run.info.run_id, result


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
