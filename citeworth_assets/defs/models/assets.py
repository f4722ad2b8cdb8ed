"""Cite-worthiness models (CiteWorth §4-§6) as training assets, tracked in MLflow
(:mod:`citeworth_assets.lib.models.tracking`), and their comparison."""

import json

import dagster as dg

from citeworth_assets.defs.figures import figure_metadata
from citeworth_assets.lib import lake
from citeworth_assets.lib.figures import log_comparison_figure
from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.models.tables import comparison_schema, domain_matrix, domain_schema
from citeworth_assets.lib.models.tracking import latest_runs, train_tracked
from citeworth_assets.lib.warehouse import markdown_table
from citeworth_assets.resources import PlatformResource, TrainingDevice
from citeworth_models.registry import ENCODER_MODELS, MODELS, NEURAL_MODELS

pa = lazy_module("pyarrow")

MODEL_POOL = "gpu"  # the neural training assets only: one at a time on the GPU
DOMAIN_FIELDS = ("Chemistry", "Engineering", "Computer Science", "Psychology", "Biology")


def release_parquet(citeworth: PlatformResource):
    rules = citeworth.rule_set.name
    path = citeworth.settings.export_dir("citeworth", rules) / "citeworth.parquet"
    if not path.exists():
        raise FileNotFoundError(f"{path} does not exist: materialize citeworth_release for rule set {rules} first")
    return path


def encoder_for(name: str, citeworth: PlatformResource) -> str | None:
    """The encoder checkpoint a model starts from (None for the models that need none)."""
    return str(citeworth.settings.encoder_dir) if name in ENCODER_MODELS else None


class TrainingConfig(dg.Config):
    params_json: str = "{}"  # hyperparameter overrides, e.g. {"epochs": 1}


@dg.asset(
    deps=["citeworth_release"],
    group_name="models",
    kinds={"pytorch"},
    description="A tiny BERT-style checkpoint (word-piece tokenizer trained on the training split, small config) built "
    "locally, for the encoder models when no encoder directory is configured.",
)
def citeworth_tiny_encoder(citeworth: PlatformResource) -> dg.MaterializeResult:
    from citeworth_models.data import load_sentences
    from citeworth_models.tiny_bert import build_tiny_bert

    texts = [text for text, _ in load_sentences(release_parquet(citeworth), split="train")]
    folder = citeworth.settings.model_dir("tiny_bert")
    build_tiny_bert(texts, folder)
    return dg.MaterializeResult(metadata={"encoder_dir": str(folder), "training_sentences": len(texts)})


def training_asset(name: str) -> dg.AssetsDefinition:
    """The training asset of one model. A neural model requires the ``training_device`` resource (its device,
    precision and determinism go into training, its description into metadata and MLflow params) and runs in
    the ``gpu`` pool; logistic regression trains on the CPU outside the pool."""
    deps = ["citeworth_release", *(["citeworth_tiny_encoder"] if name in ENCODER_MODELS else [])]
    neural = name in NEURAL_MODELS

    @dg.asset(
        name=f"model_{name}",
        deps=deps,
        group_name="models",
        kinds={"pytorch" if neural else "scikitlearn", "mlflow"},
        pool=MODEL_POOL if neural else None,
        required_resource_keys={"citeworth", "training_device"} if neural else {"citeworth"},
        description=f"Train and evaluate the {name} cite-worthiness model; params, dataset version, per-epoch dev F1, "
        "test precision/recall/F1 and the model artifact go to MLflow"
        + (" (with the training device, precision and library versions)." if neural else ".")
        + " Manual: no automation condition (training is expensive); `citeworth build --models` or Materialize.",
    )
    def train(context: dg.AssetExecutionContext, config: TrainingConfig) -> dg.MaterializeResult:
        citeworth: PlatformResource = context.resources.citeworth
        params = json.loads(config.params_json)
        device = {"training_device": "cpu"}
        if neural:  # the resource's setup wins over the same keys in params_json
            params = {**params, **context.resources.training_device.setup().params()}
            device = context.resources.training_device.describe()
        uri = citeworth.settings.tracking_uri
        run_id, result = train_tracked(
            name,
            release_parquet(citeworth),
            citeworth.settings.model_dir(name),
            citeworth.rule_set.name,
            (uri, citeworth.settings.mlruns),
            encoder_dir=encoder_for(name, citeworth),
            params=params,
            device=device,
        )
        context.log.info(f"MLflow run {run_id} in {uri}")
        return dg.MaterializeResult(
            metadata={
                "run_id": run_id,
                "tracking_uri": uri,
                **device,
                **{f"test_{k}": float(v) for k, v in result["test"].items()},
            }
        )

    return train


training_assets = [training_asset(name) for name in MODELS]


def comparison_figure(settings) -> dict:
    return figure_metadata(log_comparison_figure(settings.tracking_uri, settings.mlruns, settings.figures_dir))


@dg.asset(
    deps=[asset.key for asset in training_assets],
    group_name="models",
    kinds={"mlflow", "parquet"},
    description="The latest MLflow run of each model with its test precision, recall and F1 (the paper's Table 4).",
)
def citeworth_model_comparison(citeworth: PlatformResource) -> dg.MaterializeResult:
    rows = latest_runs(citeworth.settings.tracking_uri)
    lake.write_partition(citeworth.settings.lake, "citeworth_model_comparison", comparison_schema(), rows)
    figures = comparison_figure(citeworth.settings)  # a PNG in the metadata and in MLflow, degenerate models marked
    return dg.MaterializeResult(
        metadata={
            "table_4": dg.MetadataValue.md(markdown_table(pa.Table.from_pylist(rows, schema=comparison_schema()))),
            **figures,
        }
    )


class DomainConfig(dg.Config):
    model: str = "logistic_regression"
    params_json: str = "{}"


@dg.asset(
    deps=["citeworth_release"],
    group_name="models",
    kinds={"parquet"},
    description="Train on one field, test on another, for the paper's five fields, with the per-column standard "
    "deviation (Table 5); the model is a setting (logistic regression by default, on the CPU, so outside the gpu "
    "pool; a neural model trains on the training_device resource).",
)
def citeworth_domain_matrix(
    config: DomainConfig, citeworth: PlatformResource, training_device: TrainingDevice
) -> dg.MaterializeResult:
    from citeworth_models.registry import domain_f1

    data_path = release_parquet(citeworth)
    params = json.loads(config.params_json)
    if config.model in NEURAL_MODELS:
        params = {**params, **training_device.setup().params()}
    rows = domain_matrix(
        DOMAIN_FIELDS,
        lambda train_field, test_field: domain_f1(
            config.model,
            data_path,
            train_field,
            test_field,
            citeworth.settings.model_dir("domain"),
            encoder_dir=encoder_for(config.model, citeworth),
            params=params,
        ),
    )
    lake.write_partition(citeworth.settings.lake, "citeworth_domain_matrix", domain_schema(), rows)
    return dg.MaterializeResult(
        metadata={
            "model": config.model,
            "matrix": dg.MetadataValue.md(markdown_table(pa.Table.from_pylist(rows, schema=domain_schema()), limit=40)),
        }
    )


model_assets = [citeworth_tiny_encoder, *training_assets, citeworth_model_comparison, citeworth_domain_matrix]
