"""One entry point for the Table 4 models: train on the release Parquet, score on test, save, reload.

Defaults come from Appendix C.6. "bert" uses the BERT row; "bert_unweighted",
"bert_pu" and "citebert" use the SciBERT row (those are SciBERT runs in the
paper). Pass `params` to override (e.g. tiny sizes in tests).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from citeworth_models.citebert import CiteBert
from citeworth_models.data import load_paragraphs, load_sentences
from citeworth_models.logistic import LogisticModel
from citeworth_models.metrics import cite_worthy_scores
from citeworth_models.paragraph_context import ParagraphContextModel
from citeworth_models.pu_learning import PUSentenceClassifier
from citeworth_models.sentence_classifier import SentenceClassifier
from citeworth_models.tiny_bert import build_tiny_bert
from citeworth_models.transformer_scratch import ScratchTransformerClassifier

SCIBERT_PARAMS = {**SentenceClassifier.DEFAULTS, "batch_size": 4, "lr": 1.351e-6}


@dataclass(frozen=True)
class ModelSpec:
    """How to build one model: its class, default params, and input unit."""

    model_class: type
    defaults: dict
    paragraphs: bool = False  # True: inputs are (sentences, labels) paragraphs
    needs_encoder: bool = True


MODELS: dict[str, ModelSpec] = {
    "logistic_regression": ModelSpec(LogisticModel, LogisticModel.DEFAULTS, needs_encoder=False),
    "transformer": ModelSpec(ScratchTransformerClassifier, ScratchTransformerClassifier.DEFAULTS, needs_encoder=False),
    "bert": ModelSpec(SentenceClassifier, SentenceClassifier.DEFAULTS),
    "bert_unweighted": ModelSpec(SentenceClassifier, {**SCIBERT_PARAMS, "weighted": False}),
    "bert_pu": ModelSpec(PUSentenceClassifier, SCIBERT_PARAMS),
    "longformer_ctx": ModelSpec(ParagraphContextModel, ParagraphContextModel.DEFAULTS, paragraphs=True),
    "citebert": ModelSpec(CiteBert, CiteBert.DEFAULTS),
}


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
        "artifact_dir": str(artifact_dir),
    }
    (out_dir / "result.json").write_text(json.dumps({**result, "model": name, "encoder_dir": str(encoder_dir)}, indent=2))
    return result


def _fit(spec: ModelSpec, params: dict, train, dev, encoder_dir, out_dir: Path, on_epoch):
    """The trained model, the encoder it started from, and dev F1 per epoch.

    Without encoder_dir, encoder models get a tiny random BERT built from the training sentences
    (smoke runs only; real runs pass a SciBERT/Longformer dir).
    """
    if spec.needs_encoder and encoder_dir is None:
        texts = [s for ss, _ in train for s in ss] if spec.paragraphs else [t for t, _ in train]
        encoder_dir = build_tiny_bert(texts, out_dir / "tiny_encoder")
    model = _build(spec, encoder_dir, params)
    return model, encoder_dir, model.fit(train, dev, on_epoch)


def _test_scores(spec: ModelSpec, model, test) -> dict:
    if spec.paragraphs:
        gold = [y for _, ys in test for y in ys]
        predicted = [y for ys in model.predict([ss for ss, _ in test]) for y in ys]
    else:
        gold, predicted = [y for _, y in test], model.predict([t for t, _ in test])
    return cite_worthy_scores(gold, predicted)


def load_model(name: str, artifact_dir):
    return MODELS[name].model_class.load(artifact_dir)


def load_and_predict(name: str, artifact_dir, sentences_or_paragraphs) -> list:
    """Sentence models take texts and return labels; longformer_ctx takes lists of sentences, returns label lists."""
    return load_model(name, artifact_dir).predict(list(sentences_or_paragraphs))


def domain_f1(
    name: str, data_path, train_field: str, test_field: str, out_dir, encoder_dir=None, params: dict | None = None
) -> float | None:
    """Cite-worthy F1 on ``test_field``'s test split of a model trained on ``train_field`` (seeds/001 §5, Table 5).

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
