"""Transformer encoder trained from scratch (Table 4 "Transformer"), WordPiece vocabulary from the train split."""

from __future__ import annotations

import tempfile
from pathlib import Path

import torch
from torch import nn
from transformers import AutoTokenizer

from citeworth_models import checkpoint
from citeworth_models.sentence_classifier import ClsHeadNetwork, SentenceClassifier
from citeworth_models.tiny_bert import train_wordpiece
from citeworth_models.training import seed_everything

# Appendix C.6 "Basic Transformer"; d_model and vocab_size are not given in the paper (our choice).
DEFAULTS = {
    **SentenceClassifier.DEFAULTS,
    "batch_size": 64,
    "epochs": 33,
    "lr": 1.406e-4,
    "warmup_steps": 0,
    "weight_decay": 0.1,
    "dropout": 0.4,
    "d_model": 300,
    "n_heads": 3,
    "n_layers": 5,
    "ff_dim": 128,
    "vocab_size": 30000,
    "max_length": 256,
}
TOKENIZER_DIR = "tokenizer"
WEIGHTS_FILE = "model.pt"


class ScratchEncoder(nn.Module):
    """Token + learned position embeddings into torch.nn.TransformerEncoder."""

    def __init__(
        self,
        vocab_size: int,
        d_model: int,
        n_heads: int,
        n_layers: int,
        ff_dim: int,
        dropout: float,
        max_length: int,
        pad_id: int,
    ):
        super().__init__()
        self.tokens = nn.Embedding(vocab_size, d_model, padding_idx=pad_id)
        self.positions = nn.Embedding(max_length, d_model)
        layer = nn.TransformerEncoderLayer(d_model, n_heads, ff_dim, dropout, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, n_layers, enable_nested_tensor=False)

    def forward(self, input_ids, attention_mask):
        positions = torch.arange(input_ids.shape[1], device=input_ids.device)
        x = self.tokens(input_ids) + self.positions(positions)[None]
        return self.encoder(x, src_key_padding_mask=attention_mask == 0)


class ScratchTransformerClassifier(SentenceClassifier):
    """Same fit/predict/save/load as SentenceClassifier; no pretrained checkpoint needed."""

    DEFAULTS = DEFAULTS

    def __init__(self, encoder_dir=None, params: dict | None = None):
        super().__init__(None, params)

    def _build(self, tokenizer) -> None:
        p = self.params
        seed_everything(p["seed"])
        self.tokenizer = tokenizer
        encoder = ScratchEncoder(
            len(tokenizer),
            p["d_model"],
            p["n_heads"],
            p["n_layers"],
            p["ff_dim"],
            p["dropout"],
            p["max_length"],
            tokenizer.pad_token_id,
        )
        self.network = ClsHeadNetwork(encoder, p["d_model"], p["dropout"])

    def _prepare(self, train) -> None:
        """Train the WordPiece vocabulary on the training texts, then build the network."""
        if self.network is None:
            with tempfile.TemporaryDirectory(prefix="citeworth_wordpiece_") as scratch:
                tokenizer = train_wordpiece([text for text, _ in train], scratch, self.params["vocab_size"])
            self._build(tokenizer)

    def save(self, directory) -> Path:
        directory = Path(directory)
        checkpoint.save_params(directory, self.params)
        self.tokenizer.save_pretrained(directory / TOKENIZER_DIR)
        torch.save(self.network.state_dict(), directory / WEIGHTS_FILE)
        return directory

    @classmethod
    def load(cls, directory) -> ScratchTransformerClassifier:
        directory = Path(directory)
        model = cls(params=checkpoint.load_params(directory)["params"])
        model._build(AutoTokenizer.from_pretrained(directory / TOKENIZER_DIR))
        model.network.load_state_dict(torch.load(directory / WEIGHTS_FILE, map_location="cpu"))
        return model
