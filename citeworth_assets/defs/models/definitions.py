"""Cite-worthiness models (CiteWorth §4-§6): training assets tracked in MLflow, comparison, cross-field matrix.

Training is expensive, so nothing trains on its own when the datasets change: train from the UI (``models_job``)
or turn on the nightly schedule."""

import os

import dagster as dg

from citeworth_assets.defs.models.assets import model_assets
from citeworth_models.registry import FAST_MODELS, MODELS

# On Kubernetes (deploy/ sets CITEWORTH_GPU_POD=1 in the code location), the run pod of a training run asks for one
# GPU; elsewhere the tag would only clutter the runs of a local build.
GPU_RUN_POD = {"container_config": {"resources": {"limits": {"nvidia.com/gpu": 1}}}}
GPU_RUN_TAGS = {"dagster-k8s/config": GPU_RUN_POD} if os.environ.get("CITEWORTH_GPU_POD") == "1" else {}

models_job = dg.define_asset_job(
    "models_job",
    selection=dg.AssetSelection.groups("models")
    | dg.AssetSelection.assets(
        dg.AssetKey(["citeworth", "model_comparison"]), dg.AssetKey(["citeworth", "domain_matrix"])
    ),
    description="Train and evaluate every cite-worthiness model, compare them and fill the domain matrix.",
    tags=GPU_RUN_TAGS,
)

models_fast_job = dg.define_asset_job(
    "models_fast_job",
    selection=dg.AssetSelection.groups("models")
    - dg.AssetSelection.assets(
        *(f"model_{name}" for name in MODELS if name not in FAST_MODELS), "citeworth_tiny_encoder"
    )
    | dg.AssetSelection.assets(
        dg.AssetKey(["citeworth", "model_comparison"]), dg.AssetKey(["citeworth", "domain_matrix"])
    ),
    description="Train and evaluate the models that need no encoder (logistic regression, the transformer from "
    "scratch), compare them and fill the domain matrix: the quick set (`citeworth build --models --model-set fast`).",
    tags=GPU_RUN_TAGS,
)

models_nightly = dg.ScheduleDefinition(
    name="models_nightly",
    job=models_job,
    cron_schedule="0 2 * * *",
    default_status=dg.DefaultScheduleStatus.STOPPED,
    description="Retrain every model at 02:00 on the current release (models_job). Off by default: training is the "
    "one expensive, GPU-bound step, so it is never started by new data; turn this on for a deployment with a GPU "
    "where nightly Table 4 numbers are wanted. Datasets and warehouse views follow new shards without a schedule.",
)

defs = dg.Definitions(assets=model_assets, jobs=[models_job, models_fast_job], schedules=[models_nightly])
