"""The figures: PNGs from plain rows, the drop funnel's numbers from the lake, metadata that shows them."""

import subprocess
import sys

import pyarrow as pa
import pyarrow.parquet as pq

from citeworth_assets.lib import figures, plots

PNG = b"\x89PNG"


def write(lake, table: str, rows: list[dict], key: str = "s_0") -> None:
    folder = lake / table / f"shard={key}"
    folder.mkdir(parents=True)
    pq.write_table(pa.Table.from_pylist(rows), folder / "part-0.parquet")


def test_importing_the_plots_loads_no_matplotlib():
    code = "import sys, citeworth_assets.lib.plots, citeworth_assets.lib.figures; print('matplotlib' in sys.modules)"
    assert (
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
        == "False"
    )


def test_each_plot_is_a_png():
    stats = [
        {"field": "all", "cite_worthy": 5, "non_cite_worthy": 5, "cite_worthy_share": 0.5},
        {"field": "Biology", "cite_worthy": 2, "non_cite_worthy": 3, "cite_worthy_share": 0.4},
    ]
    assert plots.field_statistics(stats, "t").startswith(PNG)
    assert plots.model_comparison(
        [{"model": "bert", "precision": 0.4, "recall": 1.0, "f1": 0.6, "degenerate": "x"}]
    ).startswith(PNG)
    rows = [{"rouge1_recall": 60.0, "rouge2_recall": 10.0, "rougeL_recall": 45.0}]
    assert plots.rouge_distribution(rows).startswith(PNG)
    assert plots.drop_funnel([("papers", 3)], {"papers": {"too_short": 2}}, "t").startswith(PNG)


def test_funnel_counts_each_level_by_reason(tmp_path):
    lake = tmp_path / "lake"
    write(lake, "s2orc_candidate_papers", [{"paper_id": str(i)} for i in range(5)])
    write(
        lake,
        "s2orc_paper_rejections",
        [{"failed_criterion": "abstract"}, {"failed_criterion": "abstract"}, {"failed_criterion": "venue_or_id"}],
    )
    write(
        lake,
        "citeworth_rejections",
        [
            {"rule_set": "r", "level": "paper", "reason": "five_or_fewer_citation_spans"},
            {"rule_set": "r", "level": "paragraph", "reason": "no_citation_spans"},
            {"rule_set": "r", "level": "paragraph", "reason": "no_citation_spans"},
            {"rule_set": "other", "level": "paper", "reason": "five_or_fewer_citation_spans"},
        ],
    )
    write(
        lake,
        "citeworth_paragraphs",
        [
            {"rule_set": "r", "samples": [{"text": "a"}, {"text": "b"}, {"text": "c"}]},
            {"rule_set": "other", "samples": [{"text": "x"}]},
        ],
    )
    stages, drops = figures.funnel_counts(lake, "r")
    assert [kept for _, kept in stages] == [5, 4, 1, 3]  # candidates, papers kept, paragraphs, sentences
    assert list(drops.values())[:3] == [
        {"abstract": 2, "venue_or_id": 1},
        {"five_or_fewer_citation_spans": 1},
        {"no_citation_spans": 2},
    ]
    entries = figures.citeworth_statistics_figures(lake, "r", [], tmp_path / "figures")
    assert (tmp_path / "figures" / "citeworth_r_drop_funnel.png").read_bytes().startswith(PNG)
    assert (
        entries["drop_funnel"].startswith("![figure](data:image/png;base64,")
        and "| candidates → papers | five_or_fewer_citation_spans | 1 |" in entries["drop_funnel"]
    )


def test_rouge_figure_counts_below_each_threshold(tmp_path):
    lake = tmp_path / "lake"
    write(
        lake,
        "citesum_candidates",
        [
            {"rouge1_recall": 40.0, "rouge2_recall": 25.0, "rougeL_recall": 41.0},
            {"rouge1_recall": 70.0, "rouge2_recall": 5.0, "rougeL_recall": 39.0},
        ],
    )
    entries = figures.citesum_rouge_figure(lake, tmp_path / "figures")
    assert "| rouge1_recall | 50.000 | 1 | 2 |" in entries["rouge_distribution"]
    assert figures.citesum_rouge_figure(tmp_path / "empty", tmp_path / "figures") == {}
