"""`citeworth build` on a dump root that holds only arXiv/MAG sources builds them (no S2ORC shard needed)."""

import re

import duckdb
import pytest
from click.testing import CliRunner

from citeworth_assets.cli import main


@pytest.mark.slow
def test_build_picks_up_arxiv_and_mag_sources_without_s2orc(tmp_path):
    runner = CliRunner()
    dumps, data = tmp_path / "dumps", tmp_path / "data"
    assert runner.invoke(main, ["generate-sample-arxiv", "--out", str(dumps)]).exit_code == 0
    result = runner.invoke(main, ["build", "--dumps", str(dumps), "--data", str(data)])
    assert result.exit_code == 0, result.output
    assert "unarxive_2020_papers" in result.output and "arXiv contexts export" in result.output
    assert "arxiv_src_2101_001: 8 of 10 submissions converted" in result.output
    damaged = re.findall(r"^  (\S+): (pdf_only|corrupt_archive)", result.output, re.MULTILINE)
    assert sorted(reason for _, reason in damaged) == ["corrupt_archive", "pdf_only"]  # reported by id
    assert (
        "read issues: 0" not in result.output and "arxiv invalid_utf8" in result.output
    )  # the sample's damage, counted
    with duckdb.connect(str(data / "warehouse.duckdb"), read_only=True) as connection:
        # 30 unarXive 2020 + 20 unarXive 2022 + 8 converted from the LaTeX source dump
        assert connection.execute("SELECT count(*) FROM arxiv.papers").fetchone()[0] == 58
        assert connection.execute("SELECT count(*) FROM mag.works").fetchone()[0] > 0


def test_build_says_what_it_expected_on_an_empty_dump_root(tmp_path):
    (tmp_path / "dumps").mkdir()
    result = CliRunner().invoke(main, ["build", "--dumps", str(tmp_path / "dumps"), "--data", str(tmp_path / "data")])
    assert result.exit_code != 0 and "no S2ORC shards and no arXiv/MAG sources" in result.output
