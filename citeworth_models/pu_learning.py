"""Positive-unlabelled learning (Elkan & Noto, 2008) on top of the sentence classifier (Table 4 "SciBERT + PU").

Cite-worthy sentences are treated as labelled positives and the rest as
unlabelled. We use the weighted-retraining variant described in §5: a first
classifier g estimates p(labelled | x); c = mean g over dev positives; a
second classifier is trained with each unlabelled sentence twice, as positive
with weight w = (1-c)/c * g/(1-g) and as negative with weight 1-w.
"""

from __future__ import annotations

import json
from pathlib import Path

from citeworth_models.losses import class_weights
from citeworth_models.sentence_classifier import SentenceClassifier

PU_FILE = "pu.json"
EPS = 1e-6


def estimate_c(g: SentenceClassifier, dev_positive_texts) -> float:
    """c = p(labelled | positive), the mean score of g on held-out positives, kept in (0, 1]."""
    scores = g.predict_proba(dev_positive_texts)
    if not scores:
        raise ValueError("estimating c needs at least one cite-worthy dev sentence")
    return min(1.0, max(EPS, sum(scores) / len(scores)))


def positive_weight(g_score: float, c: float) -> float:
    """p(y=1 | x, unlabelled) = (1-c)/c * g/(1-g), clipped to [0, 1]."""
    w = (1 - c) / c * g_score / max(EPS, 1 - g_score)
    return min(1.0, max(0.0, w))


def pu_training_set(train, g_scores, c: float) -> tuple[list, list[float]]:
    """Positives once with weight 1; unlabelled twice (positive w, negative 1-w)."""
    examples, weights = [], []
    for (text, label), g_score in zip(train, g_scores):
        if label == 1:
            examples.append((text, 1))
            weights.append(1.0)
        else:
            w = positive_weight(g_score, c)
            examples += [(text, 1), (text, 0)]
            weights += [w, 1 - w]
    return examples, weights


class PUSentenceClassifier:
    """Two-stage PU classifier; the saved artifact is the final (second) classifier plus c."""

    DEFAULTS = SentenceClassifier.DEFAULTS

    def __init__(self, encoder_dir=None, params: dict | None = None):
        self.encoder_dir = encoder_dir
        self.params = {**self.DEFAULTS, **(params or {})}
        self.c: float | None = None
        self.final: SentenceClassifier | None = None

    def fit(self, train, dev, on_epoch=None) -> list[float]:
        """Dev F1 per epoch of the final classifier; dev positives also give c."""
        g = SentenceClassifier(self.encoder_dir, self.params)
        g.fit(train, dev)
        self.c = estimate_c(g, [text for text, label in dev if label == 1])
        g_scores = g.predict_proba([text for text, _ in train])
        del g
        examples, weights = pu_training_set(train, g_scores, self.c)
        self.final = SentenceClassifier(self.encoder_dir, self.params)
        return self.final.fit(
            examples, dev, on_epoch, sample_weights=weights, class_weight=class_weights([y for _, y in train])
        )

    def predict_proba(self, texts) -> list[float]:
        return self.final.predict_proba(texts)

    def predict(self, texts) -> list[int]:
        return self.final.predict(texts)

    def save(self, directory) -> Path:
        directory = Path(self.final.save(directory))
        (directory / PU_FILE).write_text(json.dumps({"c": self.c}))
        return directory

    @classmethod
    def load(cls, directory) -> PUSentenceClassifier:
        directory = Path(directory)
        final = SentenceClassifier.load(directory)
        model = cls(None, final.params)
        model.final = final
        model.c = json.loads((directory / PU_FILE).read_text())["c"]
        return model
