"""Pictures where people would rather look than read: each function takes plain rows and returns PNG bytes.

matplotlib is imported inside the functions, with the Agg backend (no display, no GUI toolkit), so importing this
module (as the Dagster definitions do) costs nothing.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence

# CiteSum's ROUGE-1/2/L recall thresholds (the CiteSum paper, §2.1), drawn on its distribution.
CITESUM_THRESHOLDS = {"rouge1_recall": 50.0, "rouge2_recall": 20.0, "rougeL_recall": 40.0}


def _pyplot():
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def _png(figure) -> bytes:
    buffer = io.BytesIO()
    figure.tight_layout()
    figure.savefig(buffer, format="png", dpi=100)
    _pyplot().close(figure)
    return buffer.getvalue()


def drop_funnel(stages: Sequence[tuple[str, int]], drops: Mapping[str, Mapping[str, int]], title: str) -> bytes:
    """What is left after each level (candidates → papers → paragraphs → sentences) and what each level dropped, by
    reason: one bar per level, the kept part first, each reason stacked after it."""
    plt = _pyplot()
    levels = [name for name, _ in stages]
    figure, axis = plt.subplots(figsize=(10, 1.5 + 0.8 * len(levels)))
    reasons = sorted({reason for level in drops.values() for reason in level})
    palette = [*plt.get_cmap("tab20").colors, *plt.get_cmap("tab20b").colors]
    colours = [palette[i % len(palette)] for i in range(len(reasons))]
    for row, (level, kept) in enumerate(stages):
        axis.barh(row, kept, color="#333333")
        axis.text(
            0, row - 0.45, f"{kept:,} kept, {sum(drops.get(level, {}).values()):,} dropped", va="bottom", fontsize=8
        )
        left = kept
        for reason, colour in zip(reasons, colours):
            count = drops.get(level, {}).get(reason, 0)
            if count:
                axis.barh(row, count, left=left, color=colour, label=reason)
                left += count
    handles, labels = axis.get_legend_handles_labels()
    unique = dict(zip(labels, handles))
    if unique:
        axis.legend(unique.values(), unique.keys(), fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    axis.set_yticks(range(len(levels)), levels)
    axis.invert_yaxis()
    axis.set_xlabel("count: kept (dark), then dropped by reason")
    axis.set_title(title)
    return _png(figure)


def field_statistics(rows: Sequence[Mapping], title: str) -> bytes:
    """Table 2 per field: sentences (bars, split into cite-worthy and not) and the cite-worthy share (dots)."""
    plt = _pyplot()
    rows = [row for row in rows if row["field"] != "all"]
    fields = [row["field"] for row in rows]
    figure, axis = plt.subplots(figsize=(9, 1 + 0.35 * max(len(fields), 1)))
    positive = [row.get("cite_worthy") or 0 for row in rows]
    negative = [row.get("non_cite_worthy") or 0 for row in rows]
    axis.barh(fields, positive, color="#d95f02", label="cite-worthy")
    axis.barh(fields, negative, left=positive, color="#7570b3", label="not cite-worthy")
    axis.set_xlabel("sentences")
    axis.invert_yaxis()
    share = axis.twiny()
    share.plot(
        [row.get("cite_worthy_share") or 0 for row in rows], fields, "ko", markersize=4, label="cite-worthy share"
    )
    share.set_xlim(0, 1)
    share.set_xlabel("cite-worthy share")
    axis.legend(fontsize=8, loc="lower right")
    axis.set_title(title)
    return _png(figure)


def model_comparison(rows: Sequence[Mapping], title: str = "cite-worthiness models, test set") -> bytes:
    """Precision, recall and F1 of the cite-worthy class per model; a degenerate model's name is marked with *."""
    plt = _pyplot()
    rows = sorted(rows, key=lambda row: row.get("f1") or 0)
    names = [row["model"] + (" *" if row.get("degenerate") else "") for row in rows]
    figure, axis = plt.subplots(figsize=(8, 1 + 0.5 * max(len(rows), 1)))
    height = 0.27
    for offset, (metric, colour) in enumerate((("precision", "#1b9e77"), ("recall", "#7570b3"), ("f1", "#d95f02"))):
        axis.barh(
            [i + (offset - 1) * height for i in range(len(rows))],
            [row.get(metric) or 0 for row in rows],
            height=height,
            color=colour,
            label=metric,
        )
    axis.set_yticks(range(len(rows)), names)
    axis.set_xlim(0, 1)
    axis.legend(fontsize=8, loc="lower right")
    if any(row.get("degenerate") for row in rows):
        axis.set_xlabel("* predicts one class only (see the build summary)")
    axis.set_title(title)
    return _png(figure)


def rouge_distribution(
    rows: Sequence[Mapping], thresholds: Mapping[str, float] = CITESUM_THRESHOLDS, title: str = "CiteSum candidates"
) -> bytes:
    """A histogram per ROUGE recall (x100) with its keep threshold; the count on each side is in the legend."""
    plt = _pyplot()
    figure, axes = plt.subplots(1, len(thresholds), figsize=(4 * len(thresholds), 3), sharey=True)
    for axis, (metric, threshold) in zip(axes, thresholds.items()):
        values = [row[metric] for row in rows if row.get(metric) is not None]
        axis.hist(values, bins=[i * 5 for i in range(21)], color="#7570b3")
        below = sum(value < threshold for value in values)
        axis.axvline(
            threshold,
            color="#d95f02",
            linestyle="--",
            label=f"{threshold:g}: {below:,} below, {len(values) - below:,} at or above",
        )
        axis.set_xlabel(metric.replace("_", " ") + " x100")
        axis.legend(fontsize=7)
    axes[0].set_ylabel("candidate sentences")
    figure.suptitle(title)
    return _png(figure)
