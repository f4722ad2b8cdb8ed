"""CiteSum's abstractive summarizers (§3-§4, Tables 5-7) as a training asset: BART fine-tuned on the release, CITES
transferred to title, discipline and SciTLDR, each trained model an MLflow run. Manual, like every model."""

import json
import os

import dagster as dg

from citeworth_assets.defs.models.assets import MODEL_POOL
from citeworth_assets.lib import lake
from citeworth_assets.lib.citesum.abstractive import SCORES_TABLE, aic_sections, scores_schema
from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.warehouse import markdown_table
from citeworth_assets.resources import PlatformResource, TrainingDevice

pa = lazy_module("pyarrow")

CHECKPOINT_ENV = "CITEWORTH_SEQ2SEQ"  # also citeworth_models.seq2seq.CHECKPOINT_ENV (not imported: torch)


class AbstractiveConfig(dg.Config):
    """``checkpoint``: a local BART folder (empty: ``CITEWORTH_SEQ2SEQ``, else the tiny random BART, whose scores
    mean nothing). ``train_examples`` / ``test_examples`` cap the splits (0: whole); ``seeds``: few-shot runs
    averaged (the paper's 3); ``params_json``: overrides of the seq2seq settings, e.g. {"epochs": 1}."""

    checkpoint: str = ""
    params_json: str = "{}"
    train_examples: int = 0
    test_examples: int = 0
    seeds: int = 3
    log_models: bool = True


def _splits(lake_root) -> dict[str, list[dict]]:
    splits: dict[str, list[dict]] = {}
    if lake.has_data(lake_root, "citesum_dataset"):
        for row in lake.read_partition(lake_root, "citesum_dataset").to_pylist():
            splits.setdefault(row["split"], []).append(row)
    return splits


@dg.asset(
    deps=["citesum_dataset"],
    group_name="citesum_models",
    kinds={"pytorch", "mlflow", "parquet"},
    pool=MODEL_POOL,
    description="BART fine-tuned on CiteSum with the inputs and targets of Table 5, title generation and discipline "
    "classification for BART and CITES (Table 7), CITES zero- and few-shot on SciTLDR-A (Table 6, from "
    "<dumps>/scitldr/); one MLflow run per trained model (experiment citesum). Rows of the tiny random BART (no "
    "checkpoint configured) have meaningful = false. Manual: `citeworth build --models` or Materialize.",
)
def citesum_abstractive_scores(
    context: dg.AssetExecutionContext,
    config: AbstractiveConfig,
    citeworth: PlatformResource,
    training_device: TrainingDevice,
) -> dg.MaterializeResult:
    from citeworth_assets.lib.citesum.abstractive_runs import Plan, citesum_rows, scitldr_rows

    settings = citeworth.settings
    splits = _splits(settings.lake)
    checkpoint = config.checkpoint.strip() or os.environ.get(CHECKPOINT_ENV, "").strip() or None
    plan = Plan(
        checkpoint,
        settings.model_dir("citesum"),
        (settings.tracking_uri, settings.mlruns),
        params=json.loads(config.params_json),
        device=training_device.setup().params(),
        described=training_device.describe(),
        train_limit=config.train_examples or None,
        test_limit=config.test_examples or None,
        seeds=config.seeds,
        log_models=config.log_models,
    )
    aic = aic_sections(settings.lake, {row["cited_paper_id"] for rows in splits.values() for row in rows})
    rows, cites = citesum_rows(plan, splits, aic)
    train = splits.get("train", [])[: plan.train_limit]
    rows += scitldr_rows(plan, settings.dumps, cites, [e["abstract"] for e in train] + [e["target"] for e in train])
    lake.write_partition(settings.lake, SCORES_TABLE, scores_schema(), rows)
    table = pa.Table.from_pylist(rows, schema=scores_schema())
    shown = table.drop_columns(["checkpoint", "mlflow_run_id"])
    context.log.info(f"{len(rows)} rows, checkpoint {plan.checkpoint_name}")
    return dg.MaterializeResult(
        metadata={
            "checkpoint": plan.checkpoint_name,
            "meaningful": checkpoint is not None,
            "aic_papers": len(aic),
            "scored_rows": sum(row["reason"] is None for row in rows),
            "scores": dg.MetadataValue.md(markdown_table(shown, limit=40)),
            **training_device.describe(),
        }
    )
