"""The offline evaluation (seeds/004 §6.2): fit a model on the candidates, rank them for each test context.

Results come back in long format, one row per (model, dataset, metric, k) with the mean value over the
test items the model was applicable to (``items``; NPmarker answers only contexts with a noun phrase right
before the marker, as the thesis evaluates it).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from citeworth_assets.lib.citrec.dataset import EvalDataset
from citeworth_models.citrec.base import Recommender
from citeworth_models.citrec.metrics import MAX_K, METRICS, item_metrics, mean_metrics

RESULT_SCHEMA = pa.schema(
    [
        ("model", pa.string()),
        ("dataset", pa.string()),
        ("metric", pa.string()),
        ("k", pa.int32()),
        ("value", pa.float64()),
        ("items", pa.int64()),
    ]
)


@dataclass(frozen=True)
class RunnerSettings:
    batch_size: int = 256  # queries scored at once: a (batch x candidates) dense matrix
    max_k: int = MAX_K


def rank_test_items(model: Recommender, dataset: EvalDataset, settings: RunnerSettings = RunnerSettings()):
    """(test item, ranked work ids) for each test item the fitted model is applicable to."""
    for start in range(0, len(dataset.test), settings.batch_size):
        batch = dataset.test[start : start + settings.batch_size]
        queries = [item.context.text for item in batch]
        mask = model.applicable(queries)
        chosen = [item for item, ok in zip(batch, mask) if ok]
        if not chosen:
            continue
        rankings = model.rank([item.context.text for item in chosen], settings.max_k)
        for item, ranking in zip(chosen, rankings):
            yield item, [dataset.candidates[i] for i in ranking]


def evaluate_model(
    model: Recommender, dataset: EvalDataset, settings: RunnerSettings = RunnerSettings(), fit: bool = True
) -> list[dict]:
    """Long-format result rows for one model on one data set."""
    if fit and dataset.candidates and dataset.test:  # nothing to rank or nothing to ask: all metrics are 0
        model.fit(dataset.candidate_texts())
    per_item = []
    if dataset.candidates and dataset.test:
        per_item = [
            item_metrics(ranking, item.cited, item.adjacent, settings.max_k)
            for item, ranking in rank_test_items(model, dataset, settings)
        ]
    means = mean_metrics(per_item, settings.max_k)
    return [
        {
            "model": model.name,
            "dataset": dataset.settings.name,
            "metric": metric,
            "k": k + 1,
            "value": float(means[metric][k]),
            "items": len(per_item),
        }
        for metric in METRICS
        for k in range(settings.max_k)
    ]


def evaluate_models(
    models: Iterable[Recommender], dataset: EvalDataset, settings: RunnerSettings = RunnerSettings()
) -> pa.Table:
    rows = [row for model in models for row in evaluate_model(model, dataset, settings)]
    return pa.Table.from_pylist(rows, schema=RESULT_SCHEMA)


def random_baseline(dataset: EvalDataset, k: int = MAX_K, seed: int = 0) -> dict[str, list[float]]:
    """Metric means of uniformly random rankings: what a model must beat by a wide margin."""
    rng = np.random.default_rng(seed)
    per_item = [
        item_metrics(
            [dataset.candidates[i] for i in rng.permutation(len(dataset.candidates))[:k]], item.cited, item.adjacent, k
        )
        for item in dataset.test
    ]
    return mean_metrics(per_item, k)
