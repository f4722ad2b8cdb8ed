"""Save/load helpers shared by the neural models: an encoder directory plus a small head file."""

from __future__ import annotations

import json
from pathlib import Path

import torch

PARAMS_FILE = "params.json"
HEAD_FILE = "head.pt"
ENCODER_DIR = "encoder"


def save_params(directory, params: dict, **extra) -> None:
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / PARAMS_FILE).write_text(json.dumps({"params": params, **extra}, indent=2))


def load_params(directory) -> dict:
    return json.loads((Path(directory) / PARAMS_FILE).read_text())


def save_pretrained_parts(directory, encoder, tokenizer, head: torch.nn.Module, params: dict, **extra) -> Path:
    """encoder/ (save_pretrained, reloadable by AutoModel) + head.pt + params.json."""
    directory = Path(directory)
    save_params(directory, params, **extra)
    encoder.save_pretrained(directory / ENCODER_DIR)
    tokenizer.save_pretrained(directory / ENCODER_DIR)
    torch.save(head.state_dict(), directory / HEAD_FILE)
    return directory


def load_head(directory, head: torch.nn.Module) -> None:
    head.load_state_dict(torch.load(Path(directory) / HEAD_FILE, map_location="cpu"))


class EncoderAndHead:
    """Saving and loading for models made of an encoder checkpoint, a tokenizer and a small head."""

    def save(self, directory) -> Path:
        return save_pretrained_parts(directory, self.network.encoder, self.tokenizer, self.network.head, self.params)

    @classmethod
    def load(cls, directory):
        directory = Path(directory)
        model = cls(directory / ENCODER_DIR, load_params(directory)["params"])
        load_head(directory, model.network.head)
        return model
