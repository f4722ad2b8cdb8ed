"""The untrained rankers of §4 (no torch: they run in every build) and the training settings the classifiers take.

* :func:`cosine_scores` / :func:`euclidean_scores`: similarity or (negative) distance of each sentence to the
  query, threshold-free rankings (no training).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def cosine_scores(sentences: np.ndarray, query: np.ndarray) -> np.ndarray:
    """Cosine similarity of each sentence row to the query vector (0 for an all-zero vector)."""
    norms = np.linalg.norm(sentences, axis=1) * np.linalg.norm(query)
    dots = sentences @ query
    return np.divide(dots, norms, out=np.zeros_like(dots, dtype=np.float64), where=norms > 0)


def euclidean_scores(sentences: np.ndarray, query: np.ndarray) -> np.ndarray:
    """Negative Euclidean distance to the query: the paper's Euclidean Distance classifier as a ranking."""
    return -np.linalg.norm(sentences - query, axis=1)


@dataclass(frozen=True)
class RankerTrainingSettings:
    epochs: int = 30
    learning_rate: float = 1e-3  # the paper: Adam, 1e-4 for 2,000 epochs
    weight_decay: float = 0.0  # the paper's L2 term
    hidden: int = 128
    layers: int = 1
    batch_size: int = 8  # documents per step
    seed: int = 0
    device: str = "cpu"
