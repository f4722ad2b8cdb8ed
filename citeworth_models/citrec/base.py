"""What every citation recommender offers: fit on candidates' contexts, score or rank query contexts.

Candidates are given as one list of training context texts per candidate, in a fixed order (the data set's
sorted work ids); score columns follow that order. Query and training texts carry the unarXive markers:
``MAINCIT`` where the citation to predict stood, ``CIT`` for other citations.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from citeworth_models.citrec.metrics import MAX_K, top_k


class Recommender:
    """Base class: subclasses implement :meth:`fit` and :meth:`score`; :meth:`rank` and :meth:`applicable` default."""

    name: str = ""

    def fit(self, candidate_contexts: Sequence[Sequence[str]]) -> Recommender:
        raise NotImplementedError

    def score(self, queries: Sequence[str]) -> np.ndarray:
        """A dense (queries x candidates) similarity matrix; higher is better, 0 means no evidence."""
        raise NotImplementedError

    def rank(self, queries: Sequence[str], k: int = MAX_K) -> list[np.ndarray]:
        """Candidate indices of the k best candidates per query, best first (ties to the lower index)."""
        return [top_k(row, k) for row in self.score(queries)]

    def applicable(self, queries: Sequence[str]) -> np.ndarray:
        """Which queries the model can answer at all (NPmarker needs a noun phrase before the marker)."""
        return np.ones(len(queries), dtype=bool)
