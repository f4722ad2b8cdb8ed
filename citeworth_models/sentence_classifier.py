"""BERT-style sentence classifier: encoder + linear head on [CLS] (the BERT/SciBERT rows of Table 4)."""

from __future__ import annotations

import torch
from torch import nn
from transformers import AutoModel, AutoTokenizer

from citeworth_models import checkpoint
from citeworth_models.losses import class_weights, weighted_cross_entropy
from citeworth_models.metrics import cite_worthy_f1
from citeworth_models.training import autocast, batched, pick_device, seed_everything, train_with_params

# Appendix C.6, BERT row; max_length is ours (the paper does not give one).
DEFAULTS = {
    "batch_size": 8,
    "epochs": 3,
    "lr": 8.075e-6,
    "warmup_steps": 300,
    "weight_decay": 0.1,
    "dropout": 0.1,
    "max_length": 256,
    "weighted": True,
    "seed": 1000,
    "device": None,
    "eval_batch_size": 64,
}


def first_token_state(encoder_output) -> torch.Tensor:
    """Hidden state of the first ([CLS]) token from a HF output or a plain tensor."""
    hidden = getattr(encoder_output, "last_hidden_state", encoder_output)
    return hidden[:, 0]


def hidden_layer_head(hidden: int, activation: nn.Module, dropout: float) -> nn.Sequential:
    """A classifier head with one hidden layer (the width of the encoder's states) before the two classes."""
    return nn.Sequential(nn.Linear(hidden, hidden), activation, nn.Dropout(dropout), nn.Linear(hidden, 2))


class ClsHeadNetwork(nn.Module):
    """Encoder followed by dropout and a 2-way linear layer on the first token."""

    def __init__(self, encoder: nn.Module, hidden_size: int, dropout: float):
        super().__init__()
        self.encoder = encoder
        self.head = nn.Sequential(nn.Dropout(dropout), nn.Linear(hidden_size, 2))

    def forward(self, input_ids, attention_mask):
        return self.head(first_token_state(self.encoder(input_ids=input_ids, attention_mask=attention_mask)))


class SentenceClassifier(checkpoint.EncoderAndHead):
    """Fine-tunes a local checkpoint directory; fit/predict/save/load like every model here."""

    DEFAULTS = DEFAULTS

    def __init__(self, encoder_dir=None, params: dict | None = None):
        self.params = {**self.DEFAULTS, **(params or {})}
        self.device = pick_device(self.params["device"])
        self.tokenizer = None
        self.network = None
        if encoder_dir is not None:
            seed_everything(self.params["seed"])
            self.tokenizer = AutoTokenizer.from_pretrained(encoder_dir)
            encoder = AutoModel.from_pretrained(encoder_dir)
            self.network = ClsHeadNetwork(encoder, encoder.config.hidden_size, self.params["dropout"])

    def _prepare(self, train) -> None:
        """Hook for models that build their tokenizer/network from the training data."""

    def _encode(self, texts):
        batch = self.tokenizer(
            list(texts), padding=True, truncation=True, max_length=self.params["max_length"], return_tensors="pt"
        )
        return batch["input_ids"].to(self.device), batch["attention_mask"].to(self.device)

    def _logits(self, texts) -> torch.Tensor:
        return self.network(*self._encode(texts))

    def fit(self, train, dev=None, on_epoch=None, sample_weights=None, class_weight=None) -> list[float]:
        """Train on (text, label) pairs; optional per-example weights (used by PU learning)."""
        self._prepare(train)
        seed_everything(self.params["seed"])
        weights = list(sample_weights) if sample_weights is not None else [1.0] * len(train)
        examples = [(text, label, w) for (text, label), w in zip(train, weights)]
        if class_weight is None and self.params["weighted"]:
            class_weight = class_weights([label for _, label in train])
        if not self.params["weighted"]:
            class_weight = None

        def batch_loss(batch):
            texts, labels, ws = zip(*batch)
            return weighted_cross_entropy(
                self._logits(texts),
                torch.tensor(labels, device=self.device),
                class_weight,
                torch.tensor(ws, dtype=torch.float),
            )

        return train_with_params(
            self.network,
            examples,
            batch_loss,
            self.params,
            self.device,
            (lambda: cite_worthy_f1([y for _, y in dev], self.predict([x for x, _ in dev]))) if dev else None,
            on_epoch,
        )

    @torch.no_grad()
    def predict_proba(self, texts) -> list[float]:
        """Probability of the cite-worthy class for each text."""
        self.network.to(self.device).eval()
        probs: list[float] = []
        for chunk in batched(list(texts), self.params["eval_batch_size"]):
            with autocast(self.device, self.params.get("precision")):
                logits = self._logits(chunk)
            probs.extend(torch.softmax(logits.float(), dim=-1)[:, 1].tolist())
        return probs

    def predict(self, texts) -> list[int]:
        return [int(p > 0.5) for p in self.predict_proba(texts)]
