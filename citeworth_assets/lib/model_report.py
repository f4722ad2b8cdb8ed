"""Which trained models mean nothing and why: the latest MLflow run of each model with its test scores, the share
of test sentences it predicts cite-worthy, the encoder it started from, and a reason when it predicts one class.

A model that predicts every sentence cite-worthy still scores F1 = 2p / (1 + p) for a positive share p (0.60 on
the demo), which looks like a result; the build summary and the comparison plot name it instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from citeworth_assets.lib.settings import TINY_ENCODER


def positive_share_of_test(warehouse: Path, rules: str) -> float | None:
    """The share of cite-worthy sentences in the test split: the precision of a model that predicts all of them."""
    import duckdb

    from citeworth_assets.lib.duckdb_limits import bounded

    if not warehouse.exists():
        return None
    with bounded(warehouse, read_only=True) as connection:
        try:
            share = connection.execute(
                "SELECT avg(cite_worthy::INT) FROM citeworth.sentences WHERE split = 'test' AND rule_set = ?", [rules]
            ).fetchall()[0][0]
        except duckdb.Error:
            return None
    return None if share is None else float(share)


@dataclass(frozen=True)
class DegenerateRule:
    """When a model's test scores mean (almost) nothing. A model is *degenerate* when it predicts one class only;
    *near-degenerate* when it predicts nearly one class (at most ``max_minority_share`` of test sentences in the
    other), when its recall is ``min_recall`` or less, or when its recall is ``high_recall`` or more at a precision
    within ``base_rate_margin`` of the test split's positive share (what predicting everything cite-worthy gives)."""

    max_minority_share: float = 0.05
    min_recall: float = 0.05
    high_recall: float = 0.9
    base_rate_margin: float = 0.02

    def describe(self) -> str:
        return (
            f"near-degenerate: at most {self.max_minority_share:.0%} of test sentences in one class, recall at most "
            f"{self.min_recall:.2f}, or recall at least {self.high_recall:.2f} at a precision within "
            f"{self.base_rate_margin:.2f} of the cite-worthy share of the test split"
        )


DEGENERATE_RULE = DegenerateRule()


def degenerate_reason(
    row: dict, positive_share: float | None = None, rule: DegenerateRule = DEGENERATE_RULE
) -> str | None:
    """Why a model's test scores mean nothing or almost nothing (``rule``), or None.

    Runs log the share of test sentences they predict cite-worthy; for older runs the scores tell: recall 1 at
    the precision of the test split's positive share is "everything positive", no true positive is "nothing".
    """
    share = row.get("predicted_positive_share")
    recall, precision = row.get("recall"), row.get("precision")
    at_base_rate = (
        positive_share is not None
        and precision is not None
        and abs(precision - positive_share) <= rule.base_rate_margin
    )
    if share is None:
        if recall == 1.0 and positive_share is not None and abs((precision or 0) - positive_share) < 1e-6:
            share = 1.0
        elif row.get("f1") == 0.0:
            share = 0.0
    if share in (0.0, 1.0):
        predicted = "cite-worthy" if share == 1.0 else "not cite-worthy"
        return f"predicts every sentence {predicted}: {_cause(row)}"
    near = None
    if share is not None and min(share, 1 - share) <= rule.max_minority_share:
        near = f"predicts {share:.0%} of test sentences cite-worthy"
    elif recall is not None and recall <= rule.min_recall:
        near = f"recall {recall:.2f}: it finds almost no cite-worthy sentence"
    elif recall is not None and recall >= rule.high_recall and at_base_rate:
        near = f"recall {recall:.2f} at the precision of predicting everything cite-worthy ({positive_share:.2f})"
    return None if near is None else f"near-degenerate, {near}: {_cause(row)}"


def _cause(row: dict) -> str:
    if row.get("encoder_is_tiny"):
        return "it starts from the tiny random encoder, which knows no language (make install-pretrained)"
    if row.get("encoder") is None and row.get("model") not in ("logistic_regression", "transformer"):
        return "its encoder is not recorded (a run from before the pretrained default: the tiny random encoder)"
    if row.get("model") == "transformer":
        return "the from-scratch Transformer needs many epochs (the paper trains 33)"
    return "too few training steps to leave the majority answer (more epochs or data, or a larger lr)"


def model_rows(tracking_uri: str, positive_share: float | None = None) -> list[dict]:
    """The latest finished run of each model: scores, predicted-positive share, encoder, degenerate reason."""
    from mlflow.tracking import MlflowClient

    from citeworth_assets.lib.models.tracking import EXPERIMENT

    client = MlflowClient(tracking_uri)
    experiment = client.get_experiment_by_name(EXPERIMENT)
    if experiment is None:
        return []
    latest: dict[str, dict] = {}
    runs = client.search_runs(
        [experiment.experiment_id],
        filter_string="attributes.status = 'FINISHED'",
        order_by=["attributes.start_time DESC"],
    )
    for run in runs:
        model = run.data.tags.get("model")
        if not model or model in latest:
            continue
        metrics, encoder = run.data.metrics, run.data.params.get("encoder")
        row = {
            "model": model,
            "precision": metrics.get("test_precision"),
            "recall": metrics.get("test_recall"),
            "f1": metrics.get("test_f1"),
            "predicted_positive_share": metrics.get("test_predicted_positive_share"),
            "encoder": encoder,
            "encoder_is_tiny": bool(encoder) and (encoder.endswith("tiny_bert") or encoder == TINY_ENCODER),
        }
        row["degenerate"] = degenerate_reason(row, positive_share)
        latest[model] = row
    return sorted(latest.values(), key=lambda row: -(row["f1"] or 0))
