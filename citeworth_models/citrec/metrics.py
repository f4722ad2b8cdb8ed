"""Recall, MRR, MAP and NDCG at cut-offs 1..10, as the thesis computes them (Saier 2019 §6.2).

The rules follow the thesis's own worked example of its evaluation (the author's published
``eval_metrics_mini_example``):

* Recall@k and MRR@k look at the cited work only: 1 (resp. 1/rank) if it is ranked within k.
* MAP@k counts the cited work and its adjacent citations as relevant; AP@k is the sum of precision at each
  relevant rank within k divided by the number of relevant items found within k (0 when none is found).
  Dividing by the items found, not by all relevant items, is why the thesis's MAP@5 exceeds its Recall@5.
* NDCG@k gives the cited work relevance 1 and adjacent citations 0.5, with gain 2**rel - 1 and discount
  log2(rank + 1); the ideal ranking puts the cited work first and all adjacent citations after it.

A ranking is a sequence of work ids, best first; it may be shorter than k (a model that has nothing to say
about the rest). Ties are a model's business: rankings are built by :func:`top_k` with a fixed tie rule.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

METRICS: tuple[str, ...] = ("recall", "mrr", "map", "ndcg")
MAX_K = 10
ADJACENT_RELEVANCE = 0.5


def _gain(relevance: float) -> float:
    return 2.0**relevance - 1.0


def item_metrics(
    ranking: Sequence[str], cited: str, adjacent: Sequence[str] = (), max_k: int = MAX_K
) -> dict[str, list[float]]:
    """Each metric at k = 1..max_k for one test item (list index k-1)."""
    also_relevant = set(adjacent) - {cited}
    num_relevant = 1 + len(also_relevant)
    values = {name: [0.0] * max_k for name in METRICS}
    dcg = ideal_dcg = precision_sum = 0.0
    found = 0
    cited_rank = None
    for i in range(max_k):
        rank = i + 1
        work = ranking[i] if i < len(ranking) else None
        relevance = 1.0 if work == cited else ADJACENT_RELEVANCE if work in also_relevant else 0.0
        if relevance > 0:
            found += 1
            precision_sum += found / rank
        if work == cited:
            cited_rank = rank
        discount = math.log2(rank + 1)
        dcg += _gain(relevance) / discount
        ideal = 1.0 if rank == 1 else ADJACENT_RELEVANCE if rank <= num_relevant else 0.0
        ideal_dcg += _gain(ideal) / discount
        values["ndcg"][i] = dcg / ideal_dcg
        values["map"][i] = precision_sum / max(found, 1)
        if cited_rank is not None:
            values["recall"][i] = 1.0
            values["mrr"][i] = 1.0 / cited_rank
    return values


def mean_metrics(per_item: Sequence[dict[str, list[float]]], max_k: int = MAX_K) -> dict[str, list[float]]:
    """Means over test items; all zeros for an empty evaluation."""
    if not per_item:
        return {name: [0.0] * max_k for name in METRICS}
    return {name: [sum(v[name][i] for v in per_item) / len(per_item) for i in range(max_k)] for name in METRICS}


def top_k(scores: np.ndarray, k: int = MAX_K, drop_zero: bool = True) -> np.ndarray:
    """Column indices of the k best scores, best first; ties go to the lower index (candidates are sorted by id).

    With ``drop_zero`` candidates scoring 0 or less are never recommended: a model with no evidence for a
    candidate ranks it nowhere rather than by id order, which would hand out hits by chance.
    """
    scores = np.asarray(scores, dtype=np.float64).ravel()
    k = min(k, scores.size)
    if k == 0:
        return np.empty(0, dtype=np.int64)
    part = np.argpartition(-scores, k - 1)[:k]
    threshold = scores[part].min()
    above = np.flatnonzero(scores > threshold)
    tied = np.flatnonzero(scores == threshold)[: k - above.size]
    chosen = np.concatenate([above, tied])
    order = chosen[np.lexsort((chosen, -scores[chosen]))]
    if drop_zero:
        order = order[scores[order] > 0]
    return order
