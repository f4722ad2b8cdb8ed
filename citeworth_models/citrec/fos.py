"""``fos`` and ``bow+fosboost``: fields of study named in a context (Saier 2019 §5.1.1, §6.2).

R_FoS(c) is the set of field-of-study names that appear in c. A candidate is described by the union of
R_FoS over its training contexts, and ranked by Jaccard similarity with the query's set. Names match
case-insensitively on word boundaries, longest name first, so "information retrieval" is not also read as
"information". The names come from a list: by default the MAG level-0 fields plus any names a catalogue
gives (pass them as ``extra_names``).

``bow+fosboost`` takes the BoW ranking and moves every candidate whose field overlap with the query
|R_FoS(c_i) ∩ ∪ R_FoS(c)| is maximal (and not zero) one position up.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import numpy as np
import scipy.sparse as sp

from citeworth_models.citrec.base import Recommender
from citeworth_models.citrec.bow import bow_model
from citeworth_models.citrec.metrics import MAX_K, top_k
from citeworth_models.fields import MAG_FIELDS


class FieldMatcher:
    """Finds field-of-study names in text; the vocabulary is the given names, lower-cased."""

    def __init__(self, names: Iterable[str]):
        self.names = sorted({n.strip().lower() for n in names if n and n.strip()}, key=lambda n: (-len(n), n))
        self.index = {name: i for i, name in enumerate(self.names)}
        alternatives = "|".join(re.escape(n) for n in self.names) or r"(?!x)x"
        self.pattern = re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)

    def fields(self, text: str) -> set[str]:
        return {m.group(0).lower() for m in self.pattern.finditer(text)}

    def matrix(self, texts: Sequence[str]) -> sp.csr_matrix:
        rows, cols = [], []
        for row, text in enumerate(texts):
            for name in self.fields(text):
                rows.append(row)
                cols.append(self.index[name])
        data = np.ones(len(rows), dtype=np.float32)
        return sp.csr_matrix((data, (rows, cols)), shape=(len(texts), len(self.names)))


def default_field_names(extra_names: Iterable[str] = ()) -> list[str]:
    return [*MAG_FIELDS, *extra_names]


class FosModel(Recommender):
    name = "fos"

    def __init__(self, extra_names: Iterable[str] = ()):
        self.matcher = FieldMatcher(default_field_names(extra_names))

    def fit(self, candidate_contexts: Sequence[Sequence[str]]) -> FosModel:
        joined = [" \n ".join(group) for group in candidate_contexts]  # a union of sets = the fields of the joined text
        self.candidates = self.matcher.matrix(joined)
        self.candidates.data[:] = 1.0
        self.candidate_sizes = np.asarray(self.candidates.sum(axis=1)).ravel()
        return self

    def overlap(self, queries: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """|A ∩ B| per (query, candidate), and |A| per query."""
        query = self.matcher.matrix(queries)
        intersection = np.asarray((query @ self.candidates.T).todense())
        return intersection, np.asarray(query.sum(axis=1)).ravel()

    def score(self, queries: Sequence[str]) -> np.ndarray:
        intersection, sizes = self.overlap(queries)
        union = sizes[:, None] + self.candidate_sizes[None, :] - intersection
        return np.divide(intersection, union, out=np.zeros_like(intersection), where=union > 0)


def boost_one_up(ranking: Sequence[int], boosted: set[int]) -> list[int]:
    """Move every boosted candidate one position up, unless the one above it is boosted too."""
    order = list(ranking)
    i = 1
    while i < len(order):
        if order[i] in boosted and order[i - 1] not in boosted:
            order[i - 1], order[i] = order[i], order[i - 1]
        i += 1
    return order


class BowFosBoostModel(Recommender):
    name = "bow+fosboost"

    def __init__(self, extra_names: Iterable[str] = ()):
        self.bow, self.fos = bow_model(), FosModel(extra_names)

    def fit(self, candidate_contexts: Sequence[Sequence[str]]) -> BowFosBoostModel:
        self.bow.fit(candidate_contexts)
        self.fos.fit(candidate_contexts)
        return self

    def score(self, queries: Sequence[str]) -> np.ndarray:
        """Pseudo-scores that reproduce :meth:`rank`'s order on the top ``MAX_K`` candidates."""
        scores = np.zeros_like(self.bow.score(queries))
        for row, ranking in enumerate(self.rank(queries, MAX_K)):
            scores[row, ranking] = np.arange(len(ranking), 0, -1, dtype=scores.dtype)
        return scores

    def rank(self, queries: Sequence[str], k: int = MAX_K) -> list[np.ndarray]:
        bow_scores = self.bow.score(queries)
        intersection, _ = self.fos.overlap(queries)
        rankings = []
        for row in range(len(queries)):
            ranking = top_k(bow_scores[row], k + 1)  # one more: the candidate below rank k may move up into it
            best = intersection[row].max(initial=0)
            boosted = set(np.flatnonzero(intersection[row] == best).tolist()) if best > 0 else set()
            rankings.append(np.asarray(boost_one_up(ranking.tolist(), boosted)[:k], dtype=np.int64))
        return rankings
