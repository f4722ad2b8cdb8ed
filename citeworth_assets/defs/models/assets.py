"""Cite-worthiness models (seeds/001 §4-§6) as training assets, tracked in MLflow, and their comparison."""

import json
import statistics

import dagster as dg
import pyarrow as pa

from citeworth_assets.lib import lake
from citeworth_assets.lib.models.tables import COMPARISON_SCHEMA, DOMAIN_SCHEMA
from citeworth_assets.lib.models.tracking import (
    dataset_version,
    latest_runs,
    tracked_run,
)
from citeworth_assets.lib.warehouse import markdown_table
from citeworth_assets.resources import CiteworthSettings
from citeworth_models.registry import ENCODER_MODELS, MODELS

MODEL_POOL = "gpu"
DOMAIN_FIELDS = ("Chemistry", "Engineering", "Computer Science", "Psychology", "Biology")


def release_parquet(citeworth: CiteworthSettings):
    rules = citeworth.rule_set.name
    path = citeworth.settings.export_dir("citeworth", rules) / "citeworth.parquet"
    if not path.exists():
        raise FileNotFoundError(f"{path} does not exist: materialize citeworth_release for rule set {rules} first")
    return path


def encoder_for(name: str, citeworth: CiteworthSettings) -> str | None:
    """The encoder checkpoint a model starts from (None for the models that need none)."""
    return str(citeworth.settings.encoder_dir) if name in ENCODER_MODELS else None


class TrainingConfig(dg.Config):
    params_json: str = "{}"  # hyperparameter overrides, e.g. {"epochs": 1}


@dg.asset(
    deps=["citeworth_release"],
    group_name="models",
    kinds={"pytorch"},
    pool=MODEL_POOL,
    description="A tiny BERT-style checkpoint (word-piece tokenizer trained on the training split, small config) built "
    "locally, for the encoder models when no encoder directory is configured.",
)
def citeworth_tiny_encoder(citeworth: CiteworthSettings) -> dg.MaterializeResult:
    from citeworth_models.data import load_sentences
    from citeworth_models.tiny_bert import build_tiny_bert

    texts = [text for text, _ in load_sentences(release_parquet(citeworth), split="train")]
    folder = citeworth.settings.model_dir("tiny_bert")
    build_tiny_bert(texts, folder)
    return dg.MaterializeResult(metadata={"encoder_dir": str(folder), "training_sentences": len(texts)})


def training_asset(name: str) -> dg.AssetsDefinition:
    deps = ["citeworth_release", *(["citeworth_tiny_encoder"] if name in ENCODER_MODELS else [])]

    @dg.asset(
        name=f"model_{name}",
        deps=deps,
        group_name="models",
        kinds={"pytorch", "mlflow"},
        pool=MODEL_POOL,
        description=f"Train and evaluate the {name} cite-worthiness model; params, dataset version, per-epoch dev F1, "
        "test precision/recall/F1 and the model artifact go to MLflow. "
        "Manual: no automation condition (training is expensive); `citeworth build --models` or Materialize.",
    )
    def train(context: dg.AssetExecutionContext, config: TrainingConfig, citeworth: CiteworthSettings) -> dg.MaterializeResult:
        import mlflow

        from citeworth_models.registry import train_and_evaluate
        from citeworth_models.training import pick_device

        data_path = release_parquet(citeworth)
        params = json.loads(config.params_json)
        uri = citeworth.settings.tracking_uri
        rules = citeworth.rule_set.name
        tags = {"model": name, "rule_set": rules}
        with tracked_run(uri, name, tags, citeworth.settings.mlruns) as run:
            context_params = {"dataset_version": dataset_version(data_path), "rule_set": rules, "training_device": str(pick_device())}
            mlflow.log_params(context_params)
            result = train_and_evaluate(
                name,
                data_path,
                citeworth.settings.model_dir(name),
                encoder_dir=encoder_for(name, citeworth),
                params=params,
                on_epoch=lambda epoch, f1: mlflow.log_metric("dev_f1", f1, step=epoch),
            )
            mlflow.log_params({key: value for key, value in result["params"].items() if key not in context_params})
            mlflow.log_metrics({f"test_{metric}": value for metric, value in result["test"].items()})
            mlflow.log_artifacts(str(result["artifact_dir"]), "model")
        context.log.info(f"MLflow run {run.info.run_id} in {uri}")
        return dg.MaterializeResult(
            metadata={"run_id": run.info.run_id, "tracking_uri": uri, **{f"test_{k}": float(v) for k, v in result["test"].items()}}
        )

    return train


training_assets = [training_asset(name) for name in MODELS]



@dg.asset(
    deps=[asset.key for asset in training_assets],
    group_name="models",
    kinds={"mlflow", "parquet"},
    description="The latest MLflow run of each model with its test precision, recall and F1 (the paper's Table 4).",
)
def citeworth_model_comparison(citeworth: CiteworthSettings) -> dg.MaterializeResult:
    rows = latest_runs(citeworth.settings.tracking_uri)
    lake.write_partition(citeworth.settings.lake, "citeworth_model_comparison", COMPARISON_SCHEMA, rows)
    return dg.MaterializeResult(metadata={"table_4": dg.MetadataValue.md(markdown_table(pa.Table.from_pylist(rows, schema=COMPARISON_SCHEMA)))})


class DomainConfig(dg.Config):
    model: str = "logistic_regression"
    params_json: str = "{}"


@dg.asset(
    deps=["citeworth_release"],
    group_name="models",
    kinds={"parquet"},
    pool=MODEL_POOL,
    description="Train on one field, test on another, for the paper's five fields, with the per-column standard "
    "deviation (Table 5); the model is a setting (logistic regression by default).",
)
def citeworth_domain_matrix(config: DomainConfig, citeworth: CiteworthSettings) -> dg.MaterializeResult:
    from citeworth_models.registry import domain_f1

    data_path = release_parquet(citeworth)
    rows = []
    for train_field in DOMAIN_FIELDS:
        for test_field in DOMAIN_FIELDS:
            f1 = domain_f1(config.model, data_path, train_field, test_field, citeworth.settings.model_dir("domain"),
                           encoder_dir=encoder_for(config.model, citeworth), params=json.loads(config.params_json))  # fmt: skip
            rows.append({"train_field": train_field, "test_field": test_field, "f1": f1})
    for test_field in DOMAIN_FIELDS:
        column = [row["f1"] for row in rows if row["test_field"] == test_field and row["f1"] is not None]
        rows.append({"train_field": "std", "test_field": test_field, "f1": round(statistics.pstdev(column), 4) if len(column) > 1 else None})
    lake.write_partition(citeworth.settings.lake, "citeworth_domain_matrix", DOMAIN_SCHEMA, rows)
    return dg.MaterializeResult(metadata={"model": config.model, "matrix": dg.MetadataValue.md(markdown_table(pa.Table.from_pylist(rows, schema=DOMAIN_SCHEMA), limit=40))})


model_assets = [citeworth_tiny_encoder, *training_assets, citeworth_model_comparison, citeworth_domain_matrix]
