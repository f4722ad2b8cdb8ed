"""Fixtures for the model tests: a small generated table and a tiny encoder built from it."""

import pytest
from tables import make_rows, write_table

from citeworth_models.tiny_bert import build_tiny_bert


@pytest.fixture(scope="session")
def table(tmp_path_factory) -> str:
    return write_table(tmp_path_factory.mktemp("citeworth") / "citeworth.parquet", make_rows())


@pytest.fixture(scope="session")
def tiny_encoder(tmp_path_factory, table) -> str:
    from citeworth_models.data import load_sentences

    texts = [text for text, _ in load_sentences(table)]
    return str(build_tiny_bert(texts, tmp_path_factory.mktemp("tiny_bert"), vocab_size=300))
