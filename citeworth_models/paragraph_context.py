"""Longformer-Ctx (§5): label every sentence of a paragraph from one encoder pass.

Input is [CLS] s1 [SEP] s2 [SEP] ... ; the final hidden state of each
separator goes through one hidden layer (with dropout) to a 2-way label.
Works with any local encoder checkpoint (Longformer, BERT, ...). Paragraphs
longer than max_length are split into windows of whole sentences so no
sentence label is ever dropped.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn
from transformers import AutoModel, AutoTokenizer

from citeworth_models import checkpoint
from citeworth_models.losses import class_weights, weighted_cross_entropy
from citeworth_models.metrics import cite_worthy_f1
from citeworth_models.sentence_classifier import DEFAULTS as SENTENCE_DEFAULTS
from citeworth_models.sentence_classifier import hidden_layer_head
from citeworth_models.training import autocast, batched, pick_device, seed_everything, train_with_params

# Appendix C.6, Longformer-Ctx row; max_length is ours (use 4096 with a real Longformer).
DEFAULTS = {
    **SENTENCE_DEFAULTS,
    "batch_size": 4,
    "lr": 1.112e-5,
    "weight_decay": 0.0,
    "max_length": 512,
    "eval_batch_size": 16,
}


@dataclass
class Window:
    """One encoder input: token ids, where each sentence's separator sits, and which sentences they are."""

    input_ids: list[int]
    sep_positions: list[int]
    sentence_indices: list[int]


def paragraph_windows(tokenizer, sentences: list[str], max_length: int) -> list[Window]:
    """Pack whole sentences greedily into windows of at most max_length tokens.

    A single sentence longer than a window is cut to fit, but keeps its
    separator, so every sentence index appears in exactly one window.
    """
    cls_id, sep_id = tokenizer.cls_token_id, tokenizer.sep_token_id
    room = max_length - 2  # [CLS] and the sentence's own separator
    pieces = [tokenizer(s, add_special_tokens=False)["input_ids"][:room] for s in sentences]
    windows = [Window([cls_id], [], [])]
    for index, ids in enumerate(pieces):
        current = windows[-1]
        if current.sentence_indices and len(current.input_ids) + len(ids) + 1 > max_length:
            current = Window([cls_id], [], [])
            windows.append(current)
        current.input_ids.extend(ids)
        current.sep_positions.append(len(current.input_ids))
        current.input_ids.append(sep_id)
        current.sentence_indices.append(index)
    return [w for w in windows if w.sentence_indices]


class SeparatorTagger(nn.Module):
    """Encoder + one hidden layer on every separator state."""

    def __init__(self, encoder: nn.Module, dropout: float):
        super().__init__()
        self.encoder = encoder
        self.head = hidden_layer_head(encoder.config.hidden_size, nn.GELU(), dropout)

    def forward(self, input_ids, attention_mask, rows, cols):
        states = self.encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        return self.head(states[rows, cols])


class ParagraphContextModel(checkpoint.EncoderAndHead):
    """Sentence labelling with paragraph context; predict takes and returns paragraphs."""

    DEFAULTS = DEFAULTS

    def __init__(self, encoder_dir, params: dict | None = None):
        self.params = {**self.DEFAULTS, **(params or {})}
        self.device = pick_device(self.params["device"])
        seed_everything(self.params["seed"])
        self.tokenizer = AutoTokenizer.from_pretrained(encoder_dir)
        self.network = SeparatorTagger(AutoModel.from_pretrained(encoder_dir), self.params["dropout"])

    def windows(self, sentences: list[str]) -> list[Window]:
        return paragraph_windows(self.tokenizer, sentences, self.params["max_length"])

    def _tensors(self, windows: list[Window]):
        width = max(len(w.input_ids) for w in windows)
        pad = self.tokenizer.pad_token_id
        ids = torch.tensor([w.input_ids + [pad] * (width - len(w.input_ids)) for w in windows])
        mask = torch.tensor([[1] * len(w.input_ids) + [0] * (width - len(w.input_ids)) for w in windows])
        rows = torch.tensor([i for i, w in enumerate(windows) for _ in w.sep_positions])
        cols = torch.tensor([p for w in windows for p in w.sep_positions])
        return [t.to(self.device) for t in (ids, mask, rows, cols)]

    def fit(self, train, dev=None, on_epoch=None) -> list[float]:
        """train/dev are (sentences, labels) paragraphs."""
        seed_everything(self.params["seed"])
        examples = [
            (window, [labels[i] for i in window.sentence_indices])
            for sentences, labels in train
            for window in self.windows(sentences)
        ]
        weight = class_weights([y for _, labels in train for y in labels]) if self.params["weighted"] else None

        def batch_loss(batch):
            windows, labels = zip(*batch)
            gold = torch.tensor([y for ys in labels for y in ys], device=self.device)
            return weighted_cross_entropy(self.network(*self._tensors(list(windows))), gold, weight)

        def evaluate() -> float:
            predicted = self.predict([sentences for sentences, _ in dev])
            return cite_worthy_f1([y for _, ys in dev for y in ys], [y for ys in predicted for y in ys])

        return train_with_params(
            self.network, examples, batch_loss, self.params, self.device, evaluate if dev else None, on_epoch
        )

    @torch.no_grad()
    def predict_proba(self, paragraphs) -> list[list[float]]:
        """Cite-worthy probability of every sentence, paragraph by paragraph."""
        self.network.to(self.device).eval()
        probs = [[0.0] * len(sentences) for sentences in paragraphs]
        jobs = [(p, w) for p, sentences in enumerate(paragraphs) for w in self.windows(sentences)]
        for chunk in batched(jobs, self.params["eval_batch_size"]):
            with autocast(self.device, self.params.get("precision")):
                logits = self.network(*self._tensors([w for _, w in chunk]))
            scores = iter(torch.softmax(logits.float(), dim=-1)[:, 1].tolist())
            for p, window in chunk:
                for index in window.sentence_indices:
                    probs[p][index] = next(scores)
        return probs

    def predict(self, paragraphs) -> list[list[int]]:
        return [[int(x > 0.5) for x in ps] for ps in self.predict_proba(paragraphs)]
