"""TF-IDF + logistic regression baseline (Table 4, C = 0.1151 from Appendix C.6)."""

from __future__ import annotations

from pathlib import Path

import joblib
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline

from citeworth_models.metrics import cite_worthy_f1

DEFAULTS = {"C": 0.1151, "class_weight": "balanced", "max_iter": 1000}
ARTIFACT = "model.joblib"


class LogisticModel:
    """Sentence classifier with the same fit/predict/save/load API as the neural models."""

    DEFAULTS = DEFAULTS

    def __init__(self, params: dict | None = None):
        self.params = {**DEFAULTS, **(params or {})}
        self.pipeline = make_pipeline(
            TfidfVectorizer(),
            LogisticRegression(
                C=self.params["C"], class_weight=self.params["class_weight"], max_iter=self.params["max_iter"]
            ),
        )

    def fit(self, train, dev=None, on_epoch=None) -> list[float]:
        """Fit once; returns [dev F1] so callers can treat it like one epoch."""
        texts, labels = zip(*train)
        self.pipeline.fit(list(texts), list(labels))
        if not dev:
            return []
        f1 = cite_worthy_f1([y for _, y in dev], self.predict([x for x, _ in dev]))
        if on_epoch is not None:
            on_epoch(0, f1)
        return [f1]

    def predict(self, texts) -> list[int]:
        return [int(y) for y in self.pipeline.predict(list(texts))]

    def save(self, directory) -> Path:
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        joblib.dump({"params": self.params, "pipeline": self.pipeline}, directory / ARTIFACT)
        return directory

    @classmethod
    def load(cls, directory) -> LogisticModel:
        saved = joblib.load(Path(directory) / ARTIFACT)
        model = cls(saved["params"])
        model.pipeline = saved["pipeline"]
        return model
