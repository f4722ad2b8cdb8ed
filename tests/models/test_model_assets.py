"""The training assets end to end: MLflow runs with params, dev F1 per epoch, test scores and artifacts."""

import json

import dagster as dg
import duckdb
import mlflow
import pytest
from tables import TINY, make_rows, write_table

from citeworth_assets.defs.models.assets import (
    citeworth_domain_matrix,
    citeworth_model_comparison,
    citeworth_tiny_encoder,
    training_assets,
)
from citeworth_assets.defs.warehouse.assets import build_sql_model_assets
from citeworth_assets.lib.models.tracking import latest_runs
from citeworth_assets.resources import PlatformResource, TrainingDevice
from citeworth_models.registry import MODELS, load_and_predict

pytestmark = pytest.mark.slow  # materializes the graph end to end; `make test-fast` skips it


def model_views() -> list:
    return [a for a in build_sql_model_assets() if a.key.path[-1] in ("model_comparison", "domain_matrix")]


def test_every_model_is_trained_tracked_compared_and_reloaded(tmp_path):
    data = tmp_path / "data"
    release = data / "exports" / "citeworth" / "citeworth_2021"
    release.mkdir(parents=True)
    write_table(release / "citeworth.parquet", make_rows(60))
    resources = {
        "citeworth": PlatformResource(dumps=str(tmp_path), data=str(data)),
        "training_device": TrainingDevice(),
    }
    tiny = {**TINY, "epochs": 2}
    config = {
        f"model_{name}": {"config": {"params_json": json.dumps(tiny if name != "logistic_regression" else {})}}
        for name in MODELS
    }
    result = dg.materialize(
        [citeworth_tiny_encoder, *training_assets, citeworth_model_comparison, citeworth_domain_matrix, *model_views()],
        resources=resources,
        run_config={"ops": config},
    )
    assert result.success
    uri = f"sqlite:///{data / 'mlflow.db'}"
    runs = {run["model"]: run for run in latest_runs(uri)}
    assert set(runs) == set(MODELS)
    assert runs["logistic_regression"]["f1"] > 0.8
    client = mlflow.tracking.MlflowClient(uri)
    bert = client.get_run(runs["bert"]["run_id"])
    assert bert.data.params["dataset_version"] == runs["bert"]["dataset_version"] and "lr" in bert.data.params
    assert len(client.get_metric_history(runs["bert"]["run_id"], "dev_f1")) == 2
    artifact = mlflow.artifacts.download_artifacts(
        run_id=runs["logistic_regression"]["run_id"],
        artifact_path="model",
        tracking_uri=uri,
        dst_path=str(tmp_path / "dl"),
    )
    assert load_and_predict(
        "logistic_regression",
        artifact,
        [
            "It has been shown that the error rate depends on the dose.",
            "We observed that the growth rate varies with pressure.",
        ],
    ) == [1, 0]
    with duckdb.connect(str(data / "warehouse.duckdb"), read_only=True) as connection:
        assert connection.execute("SELECT count(*) FROM citeworth.model_comparison").fetchall() == [(len(MODELS),)]
        matrix = connection.execute(
            "SELECT f1 FROM citeworth.domain_matrix WHERE train_field = 'Biology' AND test_field = 'Chemistry'"
        ).fetchall()
    assert matrix[0][0] is not None and matrix[0][0] > 0.5
