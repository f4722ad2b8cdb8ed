"""Fixtures for the sample-generator tests: one generated S2ORC dump per test module."""

from __future__ import annotations

import pytest
from s2orc_dump import PAPERS, SEED, SHARDS, Dump

from citeworth_assets.samples.s2orc import generate_sample_dump


@pytest.fixture(scope="module")
def dump(tmp_path_factory) -> Dump:
    out = tmp_path_factory.mktemp("dump")
    summary = generate_sample_dump(out, papers=PAPERS, shards=SHARDS, seed=SEED)
    return Dump(out, summary, SHARDS)
