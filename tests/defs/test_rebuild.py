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


def everything(data) -> dict[str, object]:
    """Every lake table's rows, every export file's bytes and every warehouse relation's rows."""
    out = {}
    for folder in sorted(p for p in (data / "lake").iterdir() if not p.name.startswith("_")):
        out[f"lake/{folder.name}"] = table(data, folder.name)
    for path in sorted((data / "exports").rglob("*")):
        if path.is_file() and ".staging" not in path.parts:
            out[str(path.relative_to(data))] = path.read_bytes()
    with duckdb.connect(str(data / "warehouse.duckdb"), read_only=True) as connection:
        names = connection.execute(
            "SELECT table_schema, table_name FROM information_schema.tables ORDER BY ALL"
        ).fetchall()
        for schema, name in names:
            out[f"warehouse/{schema}.{name}"] = connection.execute(
                f'SELECT * FROM "{schema}"."{name}" ORDER BY ALL'
            ).fetchall()
    return out


def table(data, name: str) -> list[tuple]:
    glob = data / "lake" / name / "*" / "*.parquet"
    with duckdb.connect() as connection:
        return connection.execute(f"SELECT * FROM read_parquet('{glob}') ORDER BY ALL").fetchall()


@pytest.mark.slow
def test_a_rebuild_gives_the_same_lake_releases_and_warehouse_as_the_fresh_build(tmp_path, monkeypatch):
    dumps = tmp_path / "dumps"
    generate_sample_dump(dumps, papers=80, shards=2, seed=7)
    build(dumps, tmp_path / "a", tmp_path / "home_a", monkeypatch)
    fresh = everything(tmp_path / "a")
    assert fresh["lake/citesum_candidates"], "the sample must give CiteSum candidates"
    # Cited papers in the second shard must be found for the first shard's citing sentences on the first build.
    cross = [row for row in fresh["lake/citesum_candidates"] if row[-1].endswith("_0")]
    assert cross
    build(dumps, tmp_path / "a", tmp_path / "home_a", monkeypatch)
    again = everything(tmp_path / "a")
    assert sorted(again) == sorted(fresh) and len(fresh) > 40
    assert [name for name in fresh if again[name] != fresh[name]] == []
    catalogue = table(tmp_path / "a", "citesum_cited_abstracts")
    assert len({row[0] for row in catalogue}) == len(catalogue) > 0
