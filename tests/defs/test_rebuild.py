"""Defect 2 of issue 10: CiteSum does not depend on build history; a fresh build and a rebuild are identical."""

import duckdb
import pytest
from click.testing import CliRunner

from citeworth_assets.cli import main
from citeworth_assets.samples.s2orc import generate_sample_dump


def build(dumps, data, home, monkeypatch):
    monkeypatch.setenv("DAGSTER_HOME", str(home))
    result = CliRunner().invoke(main, ["build", "--dumps", str(dumps), "--data", str(data)])
    assert result.exit_code == 0, result.output
    return result.output


def table(data, name: str) -> list[tuple]:
    glob = data / "lake" / name / "*" / "*.parquet"
    with duckdb.connect() as connection:
        return connection.execute(f"SELECT * FROM read_parquet('{glob}') ORDER BY ALL").fetchall()


@pytest.mark.slow
def test_citesum_is_the_same_on_a_fresh_build_and_a_rebuild(tmp_path, monkeypatch):
    dumps = tmp_path / "dumps"
    generate_sample_dump(dumps, papers=80, shards=2, seed=7)
    build(dumps, tmp_path / "a", tmp_path / "home_a", monkeypatch)
    fresh = {name: table(tmp_path / "a", name) for name in ("citesum_candidates", "citesum_drops", "citesum_dataset")}
    assert fresh["citesum_candidates"], "the sample must give CiteSum candidates"
    # Cited papers in the second shard must be found for the first shard's citing sentences on the first build.
    cross = [row for row in fresh["citesum_candidates"] if row[-1].endswith("_0")]
    assert cross
    build(dumps, tmp_path / "a", tmp_path / "home_a", monkeypatch)
    again = {name: table(tmp_path / "a", name) for name in fresh}
    assert again == fresh
    catalogue = table(tmp_path / "a", "citesum_cited_abstracts")
    assert len({row[0] for row in catalogue}) == len(catalogue) > 0
