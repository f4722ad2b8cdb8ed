"""The figures of the datasets and models: their numbers read from the lake, drawn by :mod:`plots`, saved as PNG
files under ``<data>/figures/`` and returned as asset metadata (a path, and Markdown that shows the picture and the
table in the Dagster UI). No Dagster import: the metadata is plain data that the assets wrap."""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from pathlib import Path

from citeworth_assets.lib import lake, plots
from citeworth_assets.lib.duckdb_limits import bounded

# Bars of the drop funnel, in the order a paper meets them, with the level name of the rejections they count.
FUNNEL_LEVELS = (
    ("S2ORC papers → candidates", None),
    ("candidates → papers", "paper"),
    ("paragraphs of kept papers", "paragraph"),
    ("sentences", "sentence"),
)


def figure_markdown(png: bytes, table_markdown: str = "") -> str:
    """Markdown that the Dagster UI renders: the picture inline (a data URI), then the table."""
    return f"![figure](data:image/png;base64,{base64.b64encode(png).decode()})\n\n{table_markdown}".rstrip()


def save_figure(png: bytes, folder: Path, name: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    staging = path.with_suffix(".png.tmp")
    staging.write_bytes(png)
    staging.replace(path)
    return path


def markdown_rows(rows: Sequence[Mapping], columns: Sequence[str]) -> str:
    """A small Markdown table (numbers as they are, None as an empty cell)."""

    def cell(value) -> str:
        return "" if value is None else f"{value:.3f}" if isinstance(value, float) else str(value)

    lines = ["| " + " | ".join(columns) + " |", "| " + " | ".join("---" for _ in columns) + " |"]
    lines += ["| " + " | ".join(cell(row.get(column)) for column in columns) + " |" for row in rows]
    return "\n".join(lines)


def _query(sql: str, parameters: list | None = None) -> list[tuple]:
    with bounded() as connection:
        return connection.execute(sql, parameters or []).fetchall()


def funnel_counts(lake_root: Path, rules: str) -> tuple[list[tuple[str, int]], dict[str, dict[str, int]]]:
    """(level, kept) per bar and {level: {reason: dropped}}: the candidate filter's criteria for the first bar,
    the rule set's paper, paragraph and sentence rules for the others."""
    glob = lambda table: lake.table_glob(lake_root, table)  # noqa: E731
    drops: dict[str, dict[str, int]] = {name: {} for name, _ in FUNNEL_LEVELS}
    first, papers_level, paragraphs_level, sentences_level = (name for name, _ in FUNNEL_LEVELS)
    candidates = accepted = sentences = 0
    if lake.has_data(lake_root, "s2orc_candidate_papers"):
        candidates = _query("SELECT count(*) FROM read_parquet(?)", [glob("s2orc_candidate_papers")])[0][0]
    if lake.has_data(lake_root, "s2orc_paper_rejections"):
        drops[first] = dict(
            _query(
                "SELECT failed_criterion, count(*) FROM read_parquet(?) GROUP BY 1", [glob("s2orc_paper_rejections")]
            )
        )
    if lake.has_data(lake_root, "citeworth_rejections"):
        for level, reason, count in _query(
            "SELECT level, reason, count(*) FROM read_parquet(?) WHERE rule_set = ? GROUP BY 1, 2",
            [glob("citeworth_rejections"), rules],
        ):
            target = {"paper": papers_level, "paragraph": paragraphs_level}.get(level, sentences_level)
            drops[target][reason] = drops[target].get(reason, 0) + count
    if lake.has_data(lake_root, "citeworth_paragraphs"):
        accepted, sentences = _query(
            "SELECT count(*), coalesce(sum(len(samples)), 0) FROM read_parquet(?) WHERE rule_set = ?",
            [glob("citeworth_paragraphs"), rules],
        )[0]
    kept_papers = candidates - sum(drops[papers_level].values())
    stages = [
        (first, candidates),
        (papers_level, kept_papers),
        (paragraphs_level, accepted),
        (sentences_level, sentences),
    ]
    return stages, drops


def citeworth_statistics_figures(lake_root: Path, rules: str, statistics: Sequence[Mapping], folder: Path) -> dict:
    """The drop funnel and Table 2 per field of a rule set, saved under ``folder``; metadata entries."""
    stages, drops = funnel_counts(lake_root, rules)
    funnel = plots.drop_funnel(stages, drops, f"CiteWorth {rules}: kept and dropped per level")
    table2 = plots.field_statistics(statistics, f"CiteWorth {rules}: Table 2 per field")
    funnel_rows = [{"level": level, "reason": "kept", "count": kept} for level, kept in stages]
    funnel_rows += [
        {"level": level, "reason": reason, "count": count}
        for level, _ in stages
        for reason, count in sorted(drops[level].items(), key=lambda item: -item[1])
    ]
    return {
        "drop_funnel": figure_markdown(funnel, markdown_rows(funnel_rows, ["level", "reason", "count"])),
        "drop_funnel_png": str(save_figure(funnel, folder, f"citeworth_{rules}_drop_funnel")),
        "table_2_plot": figure_markdown(table2),
        "table_2_png": str(save_figure(table2, folder, f"citeworth_{rules}_table_2")),
    }


def citesum_rouge_figure(lake_root: Path, folder: Path) -> dict:
    """The ROUGE recall distribution of every CiteSum candidate with the keep thresholds; metadata entries."""
    if not lake.has_data(lake_root, "citesum_candidates"):
        return {}
    columns = list(plots.CITESUM_THRESHOLDS)
    rows = [
        dict(zip(columns, values))
        for values in _query(
            f"SELECT {', '.join(columns)} FROM read_parquet(?)", [lake.table_glob(lake_root, "citesum_candidates")]
        )
    ]
    png = plots.rouge_distribution(rows)
    summary = [
        {
            "metric": metric,
            "threshold": threshold,
            "below": sum(row[metric] < threshold for row in rows if row[metric] is not None),
            "candidates": len(rows),
        }
        for metric, threshold in plots.CITESUM_THRESHOLDS.items()
    ]
    return {
        "rouge_distribution": figure_markdown(
            png, markdown_rows(summary, ["metric", "threshold", "below", "candidates"])
        ),
        "rouge_distribution_png": str(save_figure(png, folder, "citesum_rouge_distribution")),
    }


def model_comparison_figure(rows: Sequence[Mapping], folder: Path) -> tuple[dict, Path]:
    """The models' precision/recall/F1 as a picture; metadata entries and the PNG (for MLflow)."""
    png = plots.model_comparison(rows)
    path = save_figure(png, folder, "model_comparison")
    return {"comparison_plot": figure_markdown(png), "comparison_png": str(path)}, path


def log_comparison_figure(tracking_uri: str, artifacts: Path, folder: Path) -> dict:
    """The comparison of the latest run of each model (degenerate ones marked), saved and logged to MLflow as the
    artifact of a ``model_comparison`` run (not tagged as a model, so no comparison lists it); metadata entries."""
    import mlflow

    from citeworth_assets.lib.model_report import model_rows
    from citeworth_assets.lib.models.tracking import tracked_run

    rows = model_rows(tracking_uri)
    if not rows:
        return {}
    entries, path = model_comparison_figure(rows, folder)
    with tracked_run(tracking_uri, "model_comparison", {"kind": "comparison"}, artifacts):
        mlflow.log_artifact(str(path), "figures")
        mlflow.log_dict({row["model"]: row for row in rows}, "figures/model_comparison.json")
    return entries
