"""Per-example Average Precision and ROC AUC (scikit-learn), averaged over test examples (Table 3).

Both metrics need both classes in an example. An example with a single class (every sentence
relevant, or none) gets null metrics and is counted in ``single_class``, never silently dropped; the
means are over the two-class examples. ``std`` is the spread over examples; ``sem`` (std / sqrt(n)),
the size of the paper's ± figures, is given beside it. ``prevalence`` (mean fraction of relevant
sentences) is the expected Average Precision of a random ranking.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

import numpy as np
from sklearn.metrics import average_precision_score, roc_auc_score


def example_metrics(example_id: str, labels: Sequence[bool], scores: Sequence[float]) -> dict:
    labels = np.asarray(labels, dtype=int)
    positives = int(labels.sum())
    single = positives in (0, len(labels))
    return {
        "example_id": example_id,
        "sentences": len(labels),
        "positives": positives,
        "single_class": single,
        "average_precision": None if single else float(average_precision_score(labels, scores)),
        "roc_auc": None if single else float(roc_auc_score(labels, scores)),
    }


def _spread(values: list[float]) -> tuple[float | None, float | None, float | None]:
    if not values:
        return None, None, None
    mean = statistics.fmean(values)
    std = statistics.pstdev(values)
    return mean, std, std / math.sqrt(len(values))


def summarise(rows: list[dict]) -> dict:
    """Mean, std and standard error of both metrics, with the counts behind them."""
    scored = [r for r in rows if not r["single_class"]]
    ap = _spread([r["average_precision"] for r in scored])
    auc = _spread([r["roc_auc"] for r in scored])
    return {
        "examples": len(rows),
        "evaluated": len(scored),
        "single_class": len(rows) - len(scored),
        "average_precision_mean": ap[0],
        "average_precision_std": ap[1],
        "average_precision_sem": ap[2],
        "roc_auc_mean": auc[0],
        "roc_auc_std": auc[1],
        "roc_auc_sem": auc[2],
        "prevalence": statistics.fmean(r["positives"] / r["sentences"] for r in scored) if scored else None,
    }
