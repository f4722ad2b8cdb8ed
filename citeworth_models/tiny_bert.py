"""Build a tiny, randomly initialised BERT checkpoint offline.

No pretrained weights can be downloaded here, so tests and smoke runs use a
small local checkpoint with the same layout as SciBERT/BERT directories.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import torch
from tokenizers import BertWordPieceTokenizer
from transformers import BertConfig, BertForMaskedLM, BertTokenizerFast

SMALL_CONFIG = {
    "hidden_size": 32,
    "num_hidden_layers": 2,
    "num_attention_heads": 2,
    "intermediate_size": 64,
    "max_position_embeddings": 512,
}


def train_wordpiece(texts: Iterable[str], directory, vocab_size: int = 1000) -> BertTokenizerFast:
    """Train an uncased WordPiece vocabulary on texts and save it as a BERT tokenizer."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    trainer = BertWordPieceTokenizer(lowercase=True)
    trainer.train_from_iterator(
        list(texts), vocab_size=vocab_size, min_frequency=1, show_progress=False
    )  # its bar prints blank lines off a terminal
    trainer.save(str(directory / "tokenizer.json"))
    tokenizer = BertTokenizerFast(tokenizer_file=str(directory / "tokenizer.json"), do_lower_case=True)
    tokenizer.save_pretrained(directory)
    return tokenizer


def build_tiny_bert(texts: Iterable[str], directory, vocab_size: int = 1000, seed: int = 0, **config) -> Path:
    """Write tokenizer + config + random BertForMaskedLM weights into directory."""
    directory = Path(directory)
    tokenizer = train_wordpiece(texts, directory, vocab_size)
    torch.manual_seed(seed)
    bert_config = BertConfig(vocab_size=len(tokenizer), **{**SMALL_CONFIG, **config})
    BertForMaskedLM(bert_config).save_pretrained(directory)
    return directory
