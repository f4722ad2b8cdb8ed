"""One entry point for the Table 4 models: train on the release Parquet, score on test, save, reload.

Defaults come from Appendix C.6. "bert" uses the BERT row; "bert_unweighted",
"bert_pu" and "citebert" use the SciBERT row (those are SciBERT runs in the
paper). Pass `params` to override (e.g. tiny sizes in tests).
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from citeworth_models.data import load_paragraphs, load_sentences

# Appendix C.6's SciBERT row (the paper's unweighted, PU and CiteBERT runs are SciBERT runs).
SCIBERT_ROW = {"batch_size": 4, "lr": 1.351e-6}


@dataclass(frozen=True)
class ModelSpec:
    """How to build one model. The class is named, not imported, so that listing the models (as the Dagster
    definitions do) loads neither torch nor transformers."""

    class_path: str  # "module:Class"
    overrides: dict = field(default_factory=dict)  # on top of the class's DEFAULTS
    paragraphs: bool = False  # True: inputs are (sentences, labels) paragraphs
    needs_encoder: bool = True
    neural: bool = True  # trained in epochs by gradient descent (takes the shared training overrides)

    @property
    def model_class(self) -> type:
        module, name = self.class_path.split(":")
        return getattr(importlib.import_module(module), name)

    @property
    def defaults(self) -> dict:
        return {**self.model_class.DEFAULTS, **self.overrides}


# The models of the paper's Table 4; the only list of them.
MODELS: dict[str, ModelSpec] = {
    "logistic_regression": ModelSpec("citeworth_models.logistic:LogisticModel", needs_encoder=False, neural=False),
    "transformer": ModelSpec("citeworth_models.transformer_scratch:ScratchTransformerClassifier", needs_encoder=False),
    "bert": ModelSpec("citeworth_models.sentence_classifier:SentenceClassifier"),
    "bert_unweighted": ModelSpec(
        "citeworth_models.sentence_classifier:SentenceClassifier", {**SCIBERT_ROW, "weighted": False}
    ),
    "bert_pu": ModelSpec("citeworth_models.pu_learning:PUSentenceClassifier", SCIBERT_ROW),
    "longformer_ctx": ModelSpec("citeworth_models.paragraph_context:ParagraphContextModel", paragraphs=True),
    "citebert": ModelSpec("citeworth_models.citebert:CiteBert"),
}
ENCODER_MODELS = tuple(name for name, spec in MODELS.items() if spec.needs_encoder)
# The models that need no encoder (logistic regression, the small transformer trained from scratch): seconds on a
# CPU, where the encoder models take minutes and, without a pretrained encoder, learn little (a demo's quick set).
FAST_MODELS = tuple(name for name, spec in MODELS.items() if not spec.needs_encoder)
NEURAL_MODELS = tuple(name for name, spec in MODELS.items() if spec.neural)


def _load_split(spec: ModelSpec, data_path, split: str, fields):
    return (load_paragraphs if spec.paragraphs else load_sentences)(data_path, split=split, fields=fields)


def _build(spec: ModelSpec, encoder_dir, params: dict):
    if not spec.needs_encoder:
        return spec.model_class(params=params)
    return spec.model_class(encoder_dir, params)


def train_and_evaluate(
    name: str,
    data_path,
    out_dir,
    encoder_dir=None,
    params: dict | None = None,
    on_epoch: Callable[[int, float], None] | None = None,
    *,
    fields=None,
) -> dict:
    """Train `name` on the train split, select on dev, report cite-worthy P/R/F1 on test."""
    spec = MODELS[name]
    params = {**spec.defaults, **(params or {})}
    out_dir = Path(out_dir)
    train, dev, test = (_load_split(spec, data_path, split, fields) for split in ("train", "dev", "test"))
    model, encoder_dir, dev_f1 = _fit(spec, params, train, dev, encoder_dir, out_dir, on_epoch)
    artifact_dir = model.save(out_dir / "model")
    result = {
        "params": params,
        "dev_f1_per_epoch": dev_f1,
        "test": _test_scores(spec, model, test),
        "predicted_positive_share": _predicted_positive_share(spec, model, test),
        "artifact_dir": str(artifact_dir),
    }
    (out_dir / "result.json").write_text(
        json.dumps({**result, "model": name, "encoder_dir": str(encoder_dir)}, indent=2)
    )
    return result


def _fit(spec: ModelSpec, params: dict, train, dev, encoder_dir, out_dir: Path, on_epoch):
    """The trained model, the encoder it started from, and dev F1 per epoch.

    Without encoder_dir, encoder models get a tiny random BERT built from the training sentences
    (smoke runs only; real runs pass a SciBERT/Longformer dir).
    """
    if spec.needs_encoder and encoder_dir is None:
        from citeworth_models.tiny_bert import build_tiny_bert

        texts = [s for ss, _ in train for s in ss] if spec.paragraphs else [t for t, _ in train]
        encoder_dir = build_tiny_bert(texts, out_dir / "tiny_encoder")
    model = _build(spec, encoder_dir, params)
    return model, encoder_dir, model.fit(train, dev, on_epoch)


def _test_predictions(spec: ModelSpec, model, test) -> tuple[list[int], list[int]]:
    """Gold and predicted labels of the test split, sentence by sentence (cached on the model: scoring and the
    degenerate-model check share one prediction pass)."""
    cached = getattr(model, "_test_predictions", None)
    if cached is not None and cached[0] is test:
        return cached[1]
    if spec.paragraphs:
        gold = [y for _, ys in test for y in ys]
        predicted = [y for ys in model.predict([ss for ss, _ in test]) for y in ys]
    else:
        gold, predicted = [y for _, y in test], list(model.predict([t for t, _ in test]))
    model._test_predictions = (test, (gold, predicted))
    return gold, predicted


def _test_scores(spec: ModelSpec, model, test) -> dict:
    from citeworth_models.metrics import (
        cite_worthy_scores,  # scikit-learn, only when scoring
    )

    return cite_worthy_scores(*_test_predictions(spec, model, test))


def _predicted_positive_share(spec: ModelSpec, model, test) -> float:
    """The share of test sentences predicted cite-worthy: 0 or 1 is a model that predicts one class."""
    _, predicted = _test_predictions(spec, model, test)
    return sum(int(y) for y in predicted) / len(predicted) if predicted else 0.0


def load_model(name: str, artifact_dir):
    return MODELS[name].model_class.load(artifact_dir)


def load_and_predict(name: str, artifact_dir, sentences_or_paragraphs) -> list:
    """Sentence models take texts and return labels; longformer_ctx takes lists of sentences, returns label lists."""
    return load_model(name, artifact_dir).predict(list(sentences_or_paragraphs))


def domain_f1(
    name: str, data_path, train_field: str, test_field: str, out_dir, encoder_dir=None, params: dict | None = None
) -> float | None:
    """Cite-worthy F1 on ``test_field``'s test split of a model trained on ``train_field`` (CiteWorth §5, Table 5).

    None when either field has no data in the release.
    """
    spec = MODELS[name]
    params = {**spec.defaults, **(params or {})}
    train = _load_split(spec, data_path, "train", [train_field])
    dev = _load_split(spec, data_path, "dev", [train_field])
    test = _load_split(spec, data_path, "test", [test_field])
    if not train or not test:
        return None
    model, _, _ = _fit(spec, params, train, dev or train, encoder_dir, Path(out_dir), None)
    return round(_test_scores(spec, model, test)["f1"], 4)
