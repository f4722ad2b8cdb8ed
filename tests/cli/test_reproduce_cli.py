"""citeworth reproduce through Click's runner on a small warehouse written here, and platform.paper_tables as the
asset and the SQL model write it (real Dagster, real DuckDB)."""

import dagster as dg
import duckdb
import pytest
from click.testing import CliRunner
from reproduce_builders import small_warehouse

from citeworth_assets.cli import main
from citeworth_assets.cli.reproduce import refresh_paper_tables
from citeworth_assets.lib.settings import PlatformSettings


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    root = tmp_path_factory.mktemp("reproduce_cli")
    small_warehouse(root / "warehouse.duckdb")
    return root


def run(*args):
    result = CliRunner().invoke(main, ["reproduce", *args], catch_exceptions=False)
    return result


def test_list_names_tables_relations_and_the_build_command(data, tmp_path):
    result = run("--list", "--data", str(data))
    assert result.exit_code == 0, result.output
    assert "[citeworth:4]" in result.output and "needs citeworth.model_comparison: built" in result.output
    assert "needs citeworth.manual_eval_results: empty" in result.output
    assert "needs citeworth.domain_matrix: absent" in result.output
    assert "build: citeworth build --dumps DUMPS --data DATA --models\n" in result.output
    empty = run("--list", "--data", str(tmp_path / "none"))
    assert "(not built)" in empty.output and "no warehouse" in empty.output


def test_prints_chosen_tables_and_writes_markdown(data, tmp_path):
    result = run("citeworth:4", "saier2019:7", "--data", str(data), "--markdown", str(tmp_path / "tables") + "/")
    assert result.exit_code == 0, result.output
    assert (
        "[citeworth:4]" in result.output and "[saier2019:7]" in result.output and "[citeworth:2]" not in result.output
    )
    assert "Logistic Regression    F1      54.28      54.54" in result.output
    written = sorted(path.name for path in (tmp_path / "tables").iterdir())
    assert written == ["citeworth-table-4.md", "saier2019-table-7.md"]
    one = run("saier2019", "--data", str(data), "--markdown", str(tmp_path / "all.md"))
    text = (tmp_path / "all.md").read_text()
    assert one.exit_code == 0 and "## Saier 2019" in text and "| arXiv | #Test set items | 490,018 | 536 |" in text
    bad = CliRunner().invoke(main, ["reproduce", "citeworth:9", "--data", str(data)])
    assert bad.exit_code == 2 and "unknown table 'citeworth:9'" in bad.output


def test_the_view_holds_every_pair(data):
    """The job `citeworth build --models` runs after training: the asset, then the view over its lake table."""
    settings = PlatformSettings.resolve(dumps=str(data / "dumps"), data=str(data))
    with dg.instance_for_test() as instance:
        assert refresh_paper_tables(settings, instance)
        assert instance.get_latest_materialization_event(dg.AssetKey(["platform", "paper_tables"])) is not None
    with duckdb.connect(str(data / "warehouse.duckdb"), read_only=True) as connection:
        rows = connection.execute(
            'SELECT "table", "row", "column", published, ours, difference, reason FROM platform.paper_tables '
            "WHERE paper = 'citeworth'"
        ).fetchall()
    cells = {(t, r, c): (p, o, d, why) for t, r, c, p, o, d, why in rows}
    assert cells[("4", "Logistic Regression", "F1")][:3] == ("54.28", pytest.approx(54.54), pytest.approx(0.26))
    assert "absent" in cells[("5", "Ch", "Ch")][3] and cells[("2", "Total sentences", "#")][1] == 200
    assert len(cells) == len(rows) >= 106 and all(o is not None or why for _, o, _, why in cells.values())
