"""The papers' tables beside a build: the published figures as printed, the pairing with ours, the reasons, and
the tables computed from a small warehouse written here (real DuckDB, the views' column names)."""

from pathlib import Path

import duckdb
import pytest
from reproduce_builders import small_warehouse

from citeworth_assets.lib.reproduce import pairing, render
from citeworth_assets.lib.reproduce.published import as_number, published
from citeworth_assets.lib.reproduce.registry import paper_tables
from citeworth_assets.lib.reproduce.tables import PAPERS, Cell, PaperTable

SEEDS = Path(__file__).resolve().parents[3].parent / "shared" / "seeds"


@pytest.fixture(scope="module")
def reproduced(tmp_path_factory):
    path = small_warehouse(tmp_path_factory.mktemp("reproduce") / "warehouse.duckdb")
    with duckdb.connect(str(path), read_only=True) as connection:
        return {table.key: pairs for table, pairs in pairing.reproduce(pairing.known_tables(), connection)}


def cell(pairs, row, column):
    return next(p for p in pairs if (p.row, p.column) == (row, column))


def test_published_figures_are_the_papers_values_as_printed():
    citeworth, saier = published("citeworth"), published("saier2019")
    assert (
        citeworth[("2", "Total sentences", "#")] == "1,181,793"
        and citeworth[("2", "Total cite-worthy", "%")] == "31.76%"
    )
    assert citeworth[("3", "Ours", "Markers Removed")] == "98.10"
    assert citeworth[("4", "Longformer-Ctx", "F1")] == "67.45" and citeworth[("4", "SciBERT + PU", "R std")] == "1.40"
    assert citeworth[("5", "CS", "CS")] == "61.99" and citeworth[("5", "σ", "CS")] == "2.02"
    assert saier[("6", "arXiv", "#Test set items")] == "490,018" and saier[("6", "ACL-ARC", "Mean CC/RC SD")] == "9.5"
    assert saier[("7", "Claim+BoW", "MAP@5")] == "0.34416" and saier[("7", "FoS", "MRR@5")] == "0.00420"
    assert len({key[0] for key in citeworth}) == 4 and len(citeworth) == 106 and len(saier) == 52
    assert as_number("1,181,793") == 1181793 and as_number("31.76%") == 31.76 and as_number("≤ 2016 / ≥ 2017") is None


def test_every_published_row_appears_in_the_paper_text():
    if not SEEDS.is_dir():
        pytest.skip(f"the papers' texts are not at {SEEDS}")
    pdf = next(SEEDS.glob("000_*.txt")).read_text()
    thesis = next(SEEDS.glob("004_*.txt")).read_text()
    rows: dict = {}
    for (table, row, column), value in published("citeworth").items():
        rows.setdefault((table, row), {})[column] = value
    for (table, row), v in rows.items():
        if table == "2":
            line = f"{row} {v['#']}" + (f" ({v['%']})" if "%" in v else "")
        elif table == "3":
            line = f"{row} {v['Extracted Correct']} {v['Markers Removed']}"
        elif table == "4":  # the PDF text runs each mean into its subscript standard deviation
            line = f"{row} " + " ".join(f"{v[c]}{v[c + ' std']}" for c in ("P", "R", "F1"))
        else:
            line = f"{row} " + " ".join(v[c] for c in ("Ch", "E", "CS", "P", "B"))
        assert line in pdf, line
    for (_, row, column), value in published("saier2019").items():
        assert f"| {value} |" in thesis or column == "Train/test split" or "CC/RC" in column, (row, column)
    assert "| Claim+BoW | 0.27420 | 0.17530 | 0.34416 | 0.21829 |" in thesis
    assert "| arXiv | $\\leq 2016 / \\geq 2017$ | 63,239 | 49,980 | 490,018 | 21.7 (51.2) |" in thesis


def test_the_registry_finds_the_paper_modules_present():
    keys = {table.key for table in paper_tables()}
    assert {"citeworth:2", "citeworth:3", "citeworth:4", "citeworth:5", "saier2019:6", "saier2019:7"} <= keys
    assert all(
        table.paper in PAPERS and table.needs and table.build_command.startswith("citeworth build")
        for table in paper_tables()
    )


def test_ours_beside_published_with_difference(reproduced):
    statistics = reproduced["citeworth:2"]
    total = cell(statistics, "Total sentences", "#")
    assert (total.ours, total.difference, total.reason) == (200.0, 200 - 1181793, None)  # the faithful rule set's
    share = cell(statistics, "Total cite-worthy", "%")
    assert share.ours == pytest.approx(32.0) and share.difference == pytest.approx(32.0 - 31.76)
    models = reproduced["citeworth:4"]
    f1 = cell(models, "Logistic Regression", "F1")
    assert f1.ours == pytest.approx(54.54) and f1.difference == pytest.approx(54.54 - 54.28) and f1.reason is None
    assert "near-degenerate" in cell(models, "Transformer", "R").reason  # a number, and why it means little
    assert "one training run" in cell(models, "BERT", "F1 std").reason
    assert "not trained in this build" in cell(models, "BERT", "F1").reason
    assert "Färber" in cell(models, "Färber et al. (2018b)", "P").reason
    scores = reproduced["saier2019:7"]
    assert cell(scores, "BoW", "NDCG@5").ours == pytest.approx(0.30)
    assert cell(scores, "BM25", "MAP@5").published is None  # ours only: evaluated, not in the thesis's table
    assert "spaCy" in cell(scores, "Claim+BoW", "Recall@5").reason
    datasets = reproduced["saier2019:6"]
    assert cell(datasets, "arXiv", "#Test set items").ours == 536 and "MAG" in cell(datasets, "MAG", "#Cand.").reason


def test_every_published_cell_without_ours_has_a_reason(reproduced):
    for key, pairs in reproduced.items():
        printed = [p for p in pairs if p.published is not None]
        paper, table = key.split(":")
        assert len(printed) == sum(1 for k in published(paper) if k[0] == table)
        assert all(p.ours is not None or p.reason for p in pairs), key
    assert all("citeworth.manual_eval_results empty" in p.reason for p in reproduced["citeworth:3"])  # an empty view
    domain = reproduced["citeworth:5"]  # a view never built: its relation and the command that builds it
    assert all("citeworth.domain_matrix absent" in p.reason and "--models" in p.reason for p in domain)


def test_no_warehouse_and_unknown_cells():
    table = next(t for t in pairing.known_tables() if t.key == "citeworth:2")
    pairs = pairing.pair_table(table, [Cell("Total sentences", "#", 5.0), Cell("Sentences per paper", "#", 1.5)])
    assert "not computed" in cell(pairs, "Train sentences", "#").reason  # the computation left it out
    assert cell(pairs, "Sentences per paper", "#").published is None  # ours only
    ((_, unbuilt),) = pairing.reproduce([table], None)
    assert all(p.ours is None and "no warehouse" in p.reason and "citeworth build" in p.reason for p in unbuilt)
    with pytest.raises(pairing.UnknownTable, match="citeworth:4"):
        pairing.select(["citeworth:99"])
    assert [t.key for t in pairing.select(["saier2019", "citeworth:4"])] == [
        "saier2019:6",
        "saier2019:7",
        "citeworth:4",
    ]


def test_markdown_and_text_show_notes_and_published_precision(reproduced):
    table = next(t for t in pairing.known_tables() if t.key == "citeworth:4")
    text = render.markdown(table, reproduced["citeworth:4"])
    assert "| Logistic Regression | F1 | 54.28 | 54.54 | +0.26 |" in text
    assert "| Färber et al. (2018b) | P | 49.57 | - [" in text and "Differs from the paper:" in text
    lines = render.text(table, reproduced["citeworth:4"]).splitlines()
    assert lines[0].startswith("CiteWorth") and any("[1] not computed" in line or "[1] " in line for line in lines)
    assert render.number(1181793.0, "1,181,793") == "1,181,793" and render.number(-0.5, "0.00", signed=True) == "-0.50"


def test_a_table_with_some_relations_unbuilt_fills_what_it_can(tmp_path):
    def compute(connection):
        rows = connection.execute("SELECT row_label, value FROM citeworth.statistics").fetchall()
        return [Cell(row, "#", value) for row, value in rows]

    spec = PaperTable(
        "citeworth", "2", "t", ("citeworth.statistics", "citeworth.never_built"), "citeworth build", "", compute
    )
    with duckdb.connect(str(tmp_path / "w.duckdb")) as connection:
        connection.execute("CREATE SCHEMA citeworth")
        connection.execute("CREATE TABLE citeworth.statistics AS SELECT 'Total sentences' AS row_label, 7 AS value")
        ((_, pairs),) = pairing.reproduce([pairing.TableId("citeworth", "2", spec)], connection)
    assert cell(pairs, "Total sentences", "#").ours == 7 and cell(pairs, "Total sentences", "#").reason is None
    assert "citeworth.never_built absent" in cell(pairs, "Train sentences", "#").reason
