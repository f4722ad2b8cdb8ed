"""Shared fixtures: the real samples in ../shared/data (skipped when absent) and generated dumps."""

from pathlib import Path

import pytest

SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip(f"real sample data not found at {SHARED_DATA} (CI has ../shared/data beside the repository)")
    return SHARED_DATA
