"""``bow``: the thesis's baseline, TF-IDF cosine over each candidate's aggregated contexts (§6.2).

Punctuation and English stop words (scikit-learn's list) are removed and citation markers dropped.
"""

from __future__ import annotations

from citeworth_models.citrec.text import bow_terms
from citeworth_models.citrec.vsm import VectorSpaceModel


def bow_model() -> VectorSpaceModel:
    return VectorSpaceModel(bow_terms, weighting="tfidf", name="bow")
