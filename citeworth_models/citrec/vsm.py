"""A sparse vector space model over term lists: candidate vectors are sums of their contexts' vectors.

This is the recommendation step that Saier 2019 §5.1.2 and §5.2.2 share: each context becomes a term-count
vector, a candidate's vector is the sum over the contexts citing it, and candidates are ranked by the cosine
with the query's vector. With ``tfidf`` weighting both sides are multiplied by idf(t) = log(|C| / df(t)) over
the training contexts C (the thesis's formula, no smoothing); with ``count`` raw counts are compared.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import scipy.sparse as sp
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.preprocessing import normalize

from citeworth_models.citrec.base import Recommender

Extract = Callable[[Sequence[str]], list[list[str]]]


def _identity(terms: list[str]) -> list[str]:
    return terms


class VectorSpaceModel(Recommender):
    def __init__(self, extract: Extract, weighting: str = "tfidf", min_df: int = 1, name: str = "vsm"):
        if weighting not in ("tfidf", "count"):
            raise ValueError(f"weighting must be 'tfidf' or 'count', not {weighting!r}")
        self.extract, self.weighting, self.min_df, self.name = extract, weighting, min_df, name

    def fit(self, candidate_contexts: Sequence[Sequence[str]]) -> VectorSpaceModel:
        texts = [text for group in candidate_contexts for text in group]
        owner = np.repeat(np.arange(len(candidate_contexts)), [len(g) for g in candidate_contexts])
        self.vectorizer = CountVectorizer(analyzer=_identity, min_df=self.min_df, dtype=np.float32)
        try:
            counts = self.vectorizer.fit_transform(self.extract(texts)).tocsr()
        except ValueError:  # no term survives (e.g. no noun phrase seen twice): an empty vocabulary
            self.vectorizer = None
            self.matrix = sp.csr_matrix((len(candidate_contexts), 0), dtype=np.float32)
            return self
        self.idf = np.ones(counts.shape[1], dtype=np.float32)
        if self.weighting == "tfidf":
            df = np.bincount(counts.indices, minlength=counts.shape[1])
            self.idf = np.log(counts.shape[0] / np.maximum(df, 1)).astype(np.float32)
        assign = sp.csr_matrix(
            (np.ones(len(texts), dtype=np.float32), (owner, np.arange(len(texts)))),
            shape=(len(candidate_contexts), len(texts)),
        )
        self.matrix = normalize((assign @ counts) @ sp.diags(self.idf)).tocsr()
        return self

    def query_vectors(self, queries: Sequence[str]) -> sp.csr_matrix:
        if self.vectorizer is None:
            return sp.csr_matrix((len(queries), 0), dtype=np.float32)
        return normalize(self.vectorizer.transform(self.extract(queries)) @ sp.diags(self.idf)).tocsr()

    def score(self, queries: Sequence[str]) -> np.ndarray:
        return np.asarray((self.query_vectors(queries) @ self.matrix.T).todense())
