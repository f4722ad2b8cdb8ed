"""Each neural model trains end to end on the generated table, saves, reloads and predicts the same labels."""

import pytest
import torch
from tables import TINY
from transformers import AutoModel

from citeworth_models.citebert import CiteBert, mask_tokens
from citeworth_models.data import load_paragraphs, load_sentences
from citeworth_models.paragraph_context import ParagraphContextModel, paragraph_windows
from citeworth_models.pu_learning import (
    PUSentenceClassifier,
    positive_weight,
    pu_training_set,
)
from citeworth_models.sentence_classifier import SentenceClassifier
from citeworth_models.transformer_scratch import ScratchTransformerClassifier

SCRATCH = {**TINY, "d_model": 32, "n_heads": 2, "n_layers": 2, "ff_dim": 64, "vocab_size": 300}


@pytest.mark.parametrize(
    "make",
    [
        lambda enc: SentenceClassifier(enc, TINY),
        lambda enc: SentenceClassifier(enc, {**TINY, "weighted": False}),
        lambda enc: ScratchTransformerClassifier(params=SCRATCH),
        lambda enc: CiteBert(enc, TINY),
    ],
    ids=["bert", "bert_unweighted", "transformer", "citebert"],
)
def test_sentence_model_round_trip(make, tiny_encoder, table, tmp_path):
    model = make(tiny_encoder)
    epochs = []
    dev_f1 = model.fit(load_sentences(table, "train"), load_sentences(table, "dev"), lambda e, f: epochs.append(e))
    assert epochs == [0, 1, 2] and len(dev_f1) == 3
    texts = [t for t, _ in load_sentences(table, "test")]
    predicted = model.predict(texts)
    reloaded = type(model).load(model.save(tmp_path / "model"))
    assert reloaded.predict(texts) == predicted
    assert torch.allclose(torch.tensor(reloaded.predict_proba(texts)), torch.tensor(model.predict_proba(texts)))


def test_pu_round_trip_and_c(tiny_encoder, table, tmp_path):
    model = PUSentenceClassifier(tiny_encoder, TINY)
    model.fit(load_sentences(table, "train"), load_sentences(table, "dev"))
    assert 0.0 < model.c <= 1.0
    texts = [t for t, _ in load_sentences(table, "test")]
    reloaded = PUSentenceClassifier.load(model.save(tmp_path / "pu"))
    assert reloaded.c == model.c
    assert reloaded.predict(texts) == model.predict(texts)


def test_pu_weights():
    c = 0.5
    assert positive_weight(0.25, c) == pytest.approx(1 / 3)  # (1-c)/c * g/(1-g)
    assert positive_weight(0.99, c) == 1.0  # clipped
    examples, weights = pu_training_set([("a", 1), ("b", 0)], [0.9, 0.25], c)
    assert examples == [("a", 1), ("b", 1), ("b", 0)]
    assert weights == pytest.approx([1.0, 1 / 3, 2 / 3])


def test_paragraph_truncation_keeps_every_label(tiny_encoder):
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(tiny_encoder)
    sentences = [f"It has been shown that the error rate number {i} varies with temperature." for i in range(12)]
    sentences.append(" ".join(["temperature"] * 80) + ".")  # longer than one window on its own
    windows = paragraph_windows(tokenizer, sentences, max_length=40)
    assert len(windows) > 1
    assert sorted(i for w in windows for i in w.sentence_indices) == list(range(len(sentences)))
    for w in windows:
        assert len(w.input_ids) <= 40
        assert w.input_ids[0] == tokenizer.cls_token_id
        assert [w.input_ids[p] for p in w.sep_positions] == [tokenizer.sep_token_id] * len(w.sentence_indices)


def test_paragraph_model_round_trip(tiny_encoder, table, tmp_path):
    model = ParagraphContextModel(tiny_encoder, {**TINY, "max_length": 48})
    dev_f1 = model.fit(load_paragraphs(table, "train"), load_paragraphs(table, "dev"))
    assert len(dev_f1) == 3
    paragraphs = [s for s, _ in load_paragraphs(table, "test")]
    paragraphs.append(paragraphs[0] * 4)  # forces several windows
    predicted = model.predict(paragraphs)
    assert [len(p) for p in predicted] == [len(s) for s in paragraphs]
    reloaded = ParagraphContextModel.load(model.save(tmp_path / "ctx"))
    assert reloaded.predict(paragraphs) == predicted


def test_citebert_encoder_reusable(tiny_encoder, table, tmp_path):
    model = CiteBert(tiny_encoder, {**TINY, "epochs": 1})
    model.fit(load_sentences(table, "train"))
    encoder = AutoModel.from_pretrained(model.save_encoder(tmp_path / "citebert_encoder"))
    assert encoder.config.hidden_size == 32


def test_mask_tokens_spares_special_tokens(tiny_encoder):
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(tiny_encoder)
    ids = torch.randint(5, len(tokenizer), (4, 30))
    special = torch.zeros_like(ids, dtype=torch.bool)
    special[:, 0] = special[:, -1] = True
    masked, labels = mask_tokens(ids, special, tokenizer, probability=0.5)
    assert (labels[special] == -100).all() and (masked[special] == ids[special]).all()
    assert (labels != -100).any()
    assert (labels[labels != -100] == ids[labels != -100]).all()


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_bert_trains_on_cuda_with_mixed_precision(tiny_encoder, table, tmp_path):
    model = SentenceClassifier(tiny_encoder, TINY)
    assert model.device.type == "cuda"
    model.fit(load_sentences(table, "train"), load_sentences(table, "dev"))
    texts = [t for t, _ in load_sentences(table, "test")]
    predicted = model.predict(texts)
    assert SentenceClassifier.load(model.save(tmp_path / "gpu")).predict(texts) == predicted


@pytest.mark.slow  # a few seconds: make test runs it, make test-fast leaves it out
def test_bert_and_scratch_transformer_learn_cue_words(tiny_encoder, table):
    train, dev = load_sentences(table, "train"), load_sentences(table, "dev")
    assert max(SentenceClassifier(tiny_encoder, {**TINY, "epochs": 8}).fit(train, dev)) > 0.8
    assert max(ScratchTransformerClassifier(params={**SCRATCH, "epochs": 8}).fit(train, dev)) > 0.8
