"""``claim+bow``: a linear combination of similarities, S = Σ α_m S_m (Saier 2019 §6.2).

The thesis's heuristic weights are α_claim = 1 and α_bow = 2.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from citeworth_models.citrec.base import Recommender


class LinearCombination(Recommender):
    def __init__(self, parts: Sequence[tuple[Recommender, float]], name: str):
        self.parts, self.name = list(parts), name

    def fit(self, candidate_contexts: Sequence[Sequence[str]]) -> LinearCombination:
        for model, _ in self.parts:
            model.fit(candidate_contexts)
        return self

    def score(self, queries: Sequence[str]) -> np.ndarray:
        return sum(weight * model.score(queries) for model, weight in self.parts)
