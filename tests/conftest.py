"""Shared fixtures: the real samples in ../shared/data (skipped when absent) and generated dumps."""

import os
from pathlib import Path

import pytest

# The tests train the encoder models on the tiny random encoder (seconds), even where the pretrained extra is installed.
os.environ.setdefault("CITEWORTH_ENCODER", "tiny")

SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip(f"real sample data not found at {SHARED_DATA} (CI has ../shared/data beside the repository)")
    return SHARED_DATA
