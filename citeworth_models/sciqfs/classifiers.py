"""Sentence relevance classifiers of §4.2-4.3: each sentence embedding is concatenated with the
query embedding, and a classifier scores every sentence; training uses binary cross-entropy.

* :func:`cosine_scores` / :func:`euclidean_scores` (from :mod:`rankers`, torch-free): similarity or (negative)
  distance of sentence and query, threshold-free rankings (no training);
* :class:`MLPScorer`: sentence by sentence, unaware of order;
* :class:`BiLSTMScorer`: over the sentence sequence, batch-first; padded documents are packed, so the
  backward direction starts at each document's last real sentence, not at padding (the published
  LSTM was not batch-first and read padding);
* :class:`TransformerScorer`: a small encoder over the sentence sequence with sinusoidal positions and
  a key-padding mask.

The loss is averaged over real sentences only (padding masked).
"""

from __future__ import annotations

import math
import random

import numpy as np
import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence

from citeworth_models.sciqfs.rankers import RankerTrainingSettings, cosine_scores, euclidean_scores  # noqa: F401  (re-exported)


class MLPScorer(nn.Module):
    def __init__(self, in_dim: int, hidden: int = 128, layers: int = 1):
        super().__init__()
        blocks, width = [], in_dim
        for _ in range(layers):
            blocks += [nn.Linear(width, hidden), nn.ReLU()]
            width = hidden
        self.net = nn.Sequential(*blocks, nn.Linear(width, 1))

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return self.net(x).squeeze(-1)


class BiLSTMScorer(nn.Module):
    def __init__(self, in_dim: int, hidden: int = 128, layers: int = 1):
        super().__init__()
        self.lstm = nn.LSTM(in_dim, hidden, num_layers=layers, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * hidden, 1)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        lengths = mask.sum(1).cpu()
        packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
        hidden, _ = pad_packed_sequence(self.lstm(packed)[0], batch_first=True, total_length=x.shape[1])
        return self.out(hidden).squeeze(-1)


def _positions(length: int, dim: int, device) -> torch.Tensor:
    position = torch.arange(length, device=device, dtype=torch.float32).unsqueeze(1)
    rate = torch.exp(torch.arange(0, dim, 2, device=device, dtype=torch.float32) * (-math.log(10000.0) / dim))
    table = torch.zeros(length, dim, device=device)
    table[:, 0::2] = torch.sin(position * rate)
    table[:, 1::2] = torch.cos(position * rate[: dim // 2])
    return table


class TransformerScorer(nn.Module):
    def __init__(self, in_dim: int, hidden: int = 128, layers: int = 1, heads: int = 4, dropout: float = 0.1):
        super().__init__()
        self.project = nn.Linear(in_dim, hidden)
        layer = nn.TransformerEncoderLayer(hidden, heads, dim_feedforward=2 * hidden, dropout=dropout, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.out = nn.Linear(hidden, 1)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        h = self.project(x) + _positions(x.shape[1], self.project.out_features, x.device)
        return self.out(self.encoder(h, src_key_padding_mask=~mask)).squeeze(-1)


SEQUENCE_MODELS = {"mlp": MLPScorer, "lstm": BiLSTMScorer, "transformer": TransformerScorer}


def _batch(features: list[np.ndarray], labels: list[np.ndarray] | None, device: str):
    x = pad_sequence([torch.from_numpy(f) for f in features], batch_first=True).to(device)
    lengths = torch.tensor([len(f) for f in features])
    mask = (torch.arange(x.shape[1]).unsqueeze(0) < lengths.unsqueeze(1)).to(device)
    y = (
        pad_sequence([torch.from_numpy(label) for label in labels], batch_first=True).to(device)
        if labels is not None
        else None
    )
    return x, mask, y


def train_scorer(
    kind: str, features: list[np.ndarray], labels: list[np.ndarray], settings: RankerTrainingSettings | None = None
) -> nn.Module:
    """Train one classifier on documents given as (sentences x features) arrays with 0/1 labels."""
    settings = settings or RankerTrainingSettings()
    torch.manual_seed(settings.seed)
    order = list(range(len(features)))
    shuffle = random.Random(settings.seed)
    model = SEQUENCE_MODELS[kind](features[0].shape[1], settings.hidden, settings.layers).to(settings.device)
    optimiser = torch.optim.Adam(model.parameters(), lr=settings.learning_rate, weight_decay=settings.weight_decay)
    loss_fn = nn.BCEWithLogitsLoss(reduction="none")
    model.train()
    for _ in range(settings.epochs):
        shuffle.shuffle(order)
        for start in range(0, len(order), settings.batch_size):
            chosen = order[start : start + settings.batch_size]
            x, mask, y = _batch([features[i] for i in chosen], [labels[i] for i in chosen], settings.device)
            loss = (loss_fn(model(x, mask), y) * mask).sum() / mask.sum()
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
    return model.eval()


def predict_scores(
    model: nn.Module, features: list[np.ndarray], batch_size: int = 16, device: str = "cpu"
) -> list[np.ndarray]:
    scores = []
    with torch.inference_mode():
        for start in range(0, len(features), batch_size):
            chunk = features[start : start + batch_size]
            x, mask, _ = _batch(chunk, None, device)
            logits = model(x, mask).cpu().numpy()
            scores.extend(logits[i, : len(f)] for i, f in enumerate(chunk))
    return scores
