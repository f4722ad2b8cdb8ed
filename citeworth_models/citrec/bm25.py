"""``bm25``: Okapi BM25 over each candidate's aggregated contexts, with the ``bm25s`` library (sparse, numpy).

The thesis chose TF-IDF over BM25 "because the former shows better performance in our evaluations" (§6.2);
this model is here to check that claim on our data. Terms are the same as ``bow``'s.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from citeworth_models.citrec.base import Recommender
from citeworth_models.citrec.text import bow_terms


@dataclass(frozen=True)
class Bm25Settings:
    k1: float = 1.5
    b: float = 0.75
    method: str = "lucene"


class Bm25Model(Recommender):
    name = "bm25"

    def __init__(self, settings: Bm25Settings = Bm25Settings()):
        self.settings = settings

    def fit(self, candidate_contexts: Sequence[Sequence[str]]) -> Bm25Model:
        import bm25s

        if bm25s.logger.level == logging.DEBUG:  # bm25s sets DEBUG on import: a line per index in every build
            bm25s.logger.setLevel(logging.WARNING)
        documents = [[term for terms in bow_terms(group) for term in terms] for group in candidate_contexts]
        self.n_candidates = len(documents)
        if not any(documents):  # bm25s cannot index an empty vocabulary; nothing can be recommended anyway
            self.index = None
            return self
        self.index = bm25s.BM25(k1=self.settings.k1, b=self.settings.b, method=self.settings.method)
        self.index.index(documents, show_progress=False)
        return self

    def score(self, queries: Sequence[str]) -> np.ndarray:
        scores = np.zeros((len(queries), self.n_candidates), np.float32)
        if self.index is None:
            return scores
        for row, terms in enumerate(bow_terms(queries)):
            if terms:  # bm25s fails on a query without terms ("See also MAINCIT ."): its row stays 0, no ranking
                scores[row] = self.index.get_scores(terms)
        return scores
