"""`citeworth build` on a dump root that holds only arXiv/MAG sources builds them (no S2ORC shard needed)."""

import re

import duckdb
import pytest
from click.testing import CliRunner

from citeworth_assets.cli import main

DEMO_ARXIV_PAPERS = 300  # the Makefile's SAMPLE_ARXIV_PAPERS
TINY_PARAMS = '{"epochs": 1, "max_length": 32, "d_model": 12, "vocab_size": 500, "warmup_steps": 1}'


@pytest.mark.slow
@pytest.mark.ops
def test_build_picks_up_arxiv_and_mag_sources_without_s2orc(tmp_path):
    runner = CliRunner()
    dumps, data = tmp_path / "dumps", tmp_path / "data"
    # 300 papers, as the demo: enough old-style (pre-2016, training) citing papers for cited works that pass Saier
    # 2019's candidate rule (5 contexts from 5 citing papers), so --models trains and evaluates citation recommendation
    arguments = ["generate-sample-arxiv", "--out", str(dumps), "--papers", str(DEMO_ARXIV_PAPERS)]
    assert runner.invoke(main, arguments).exit_code == 0
    models = ["--models", "--model-set", "fast", "--model-params", TINY_PARAMS]
    result = runner.invoke(main, ["build", "--dumps", str(dumps), "--data", str(data), *models])
    assert result.exit_code == 0, result.output
    assert "models: not trained (no S2ORC shards" in result.output and "citrec: trained and evaluated" in result.output
    assert "unarxive_2020_papers" in result.output and "arXiv contexts export" in result.output
    assert "arxiv_src_2101_001: 8 of 10 submissions converted" in result.output
    damaged = re.findall(r"^  (\S+): (pdf_only|corrupt_archive)", result.output, re.MULTILINE)
    assert sorted(reason for _, reason in damaged) == ["corrupt_archive", "pdf_only"]  # reported by id
    assert (
        "read issues: 0" not in result.output and "arxiv invalid_utf8" in result.output
    )  # the sample's damage, counted
    with duckdb.connect(str(data / "warehouse.duckdb"), read_only=True) as connection:
        # 300 unarXive 2020 + 20 unarXive 2022 + 6 unarXive 2024 + 8 converted from the LaTeX source dump
        assert connection.execute("SELECT count(*) FROM arxiv.papers").fetchone()[0] == DEMO_ARXIV_PAPERS + 34
        assert connection.execute("SELECT count(*) FROM mag.works").fetchone()[0] > 0
        candidates = connection.execute("SELECT count(*) FROM citrec.candidates").fetchone()[0]
        models = connection.execute("SELECT DISTINCT model FROM citrec.results ORDER BY model").fetchall()
    assert candidates > 0 and [name for (name,) in models] == sorted(["bow", "bm25", "fos", "bow+fosboost"])


def test_build_says_what_it_expected_on_an_empty_dump_root(tmp_path):
    (tmp_path / "dumps").mkdir()
    result = CliRunner().invoke(main, ["build", "--dumps", str(tmp_path / "dumps"), "--data", str(tmp_path / "data")])
    assert result.exit_code != 0 and "no S2ORC shards and no arXiv/MAG sources" in result.output
