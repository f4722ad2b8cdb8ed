"""The offline evaluation (Saier 2019 §6.2): fit a model on the candidates, rank them for each test context.

Results come back in long format, one row per (model, dataset, metric, k) with the mean value over the
test items the model was applicable to (``items``; NPmarker answers only contexts with a noun phrase right
before the marker, as the thesis evaluates it).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Protocol

import numpy as np
import pyarrow as pa

from citeworth_models.citrec.base import Recommender
from citeworth_models.citrec.metrics import MAX_K, METRICS, item_metrics, mean_metrics


class TestItem(Protocol):
    """One test context: its text (``context.text``), the work it cites and the adjacent citations."""

    context: object
    cited: str
    adjacent: Sequence[str]


class EvalDataset(Protocol):
    """What the evaluation reads of a data set (the platform's ``EvalDataset`` has it): the candidates' ids, their
    training contexts, the test items and the data set's name (``settings.name``)."""

    settings: object
    candidates: Sequence[str]
    test: Sequence[TestItem]

    def candidate_texts(self) -> list[list[str]]: ...


@cache
def result_schema() -> pa.Schema:
    return pa.schema(
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
class ScoringSettings:
    batch_size: int = 256  # queries scored at once: a (batch x candidates) dense matrix
    max_k: int = MAX_K


@dataclass
class ModelRun:
    """One model's answers: (test item index, ranked work ids) per applicable item, and how many were empty.

    A query with no term left (``See also MAINCIT .``) gets an empty ranking: it counts as an item (all metrics
    0) and in ``empty``, so that a model is never credited for leaving hard queries out."""

    model: str
    rankings: list[tuple[int, list[str]]] = field(default_factory=list)
    not_applicable: int = 0

    @property
    def empty(self) -> int:
        return sum(not ranking for _, ranking in self.rankings)


def rank_test_items(model: Recommender, dataset: EvalDataset, settings: ScoringSettings = ScoringSettings()):
    """(test item index, test item, ranked work ids) for each test item the fitted model is applicable to."""
    for start in range(0, len(dataset.test), settings.batch_size):
        batch = dataset.test[start : start + settings.batch_size]
        mask = model.applicable([item.context.text for item in batch])
        chosen = [(start + i, item) for i, (item, ok) in enumerate(zip(batch, mask)) if ok]
        if not chosen:
            continue
        rankings = model.rank([item.context.text for _, item in chosen], settings.max_k)
        for (index, item), ranking in zip(chosen, rankings):
            yield index, item, [dataset.candidates[i] for i in ranking]


def run_model(
    model: Recommender, dataset: EvalDataset, settings: ScoringSettings = ScoringSettings(), fit: bool = True
) -> ModelRun:
    """Fit (unless ``fit`` is False) and rank every test item the model is applicable to."""
    run = ModelRun(model.name)
    if not (dataset.candidates and dataset.test):  # nothing to rank or nothing to ask: all metrics are 0
        return run
    if fit:
        model.fit(dataset.candidate_texts())
    run.rankings = [(index, ranking) for index, _, ranking in rank_test_items(model, dataset, settings)]
    run.not_applicable = len(dataset.test) - len(run.rankings)
    return run


def result_rows(run: ModelRun, dataset: EvalDataset, max_k: int = MAX_K) -> list[dict]:
    """Long-format result rows of one model's run."""
    per_item = [
        item_metrics(ranking, dataset.test[index].cited, dataset.test[index].adjacent, max_k)
        for index, ranking in run.rankings
    ]
    means = mean_metrics(per_item, max_k)
    return [
        {
            "model": run.model,
            "dataset": dataset.settings.name,
            "metric": metric,
            "k": k + 1,
            "value": float(means[metric][k]),
            "items": len(per_item),
        }
        for metric in METRICS
        for k in range(max_k)
    ]


def evaluate_model(
    model: Recommender, dataset: EvalDataset, settings: ScoringSettings = ScoringSettings(), fit: bool = True
) -> list[dict]:
    """Long-format result rows for one model on one data set."""
    return result_rows(run_model(model, dataset, settings, fit), dataset, settings.max_k)


def evaluate_models(
    models: Iterable[Recommender], dataset: EvalDataset, settings: ScoringSettings = ScoringSettings()
) -> pa.Table:
    rows = [row for model in models for row in evaluate_model(model, dataset, settings)]
    return pa.Table.from_pylist(rows, schema=result_schema())


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
