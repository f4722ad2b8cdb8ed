"""Each metric against the cut-off k, one line per model (the thesis's Figures 10-13), as a PNG.

Drawn on a bare matplotlib Figure with the Agg canvas: no pyplot state, no display needed.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from citeworth_models.citrec.metrics import METRICS

TITLES = {"recall": "Recall", "mrr": "MRR", "map": "MAP", "ndcg": "NDCG"}


def plot_metrics(results: pa.Table, path: str | Path, dataset: str | None = None) -> Path:
    """Write a 1x4 panel PNG of the long-format results of one data set (the only one, or ``dataset``)."""
    rows = results.to_pylist()
    datasets = sorted({r["dataset"] for r in rows})
    if dataset is None:
        if len(datasets) != 1:
            raise ValueError(f"results hold {len(datasets)} data sets ({datasets}); name the one to plot")
        dataset = datasets[0]
    rows = [r for r in rows if r["dataset"] == dataset]
    if not rows:
        raise ValueError(f"no results for data set {dataset!r}")
    models = list(dict.fromkeys(r["model"] for r in rows))
    figure = Figure(figsize=(16, 4), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.subplots(1, len(METRICS))
    for ax, metric in zip(axes, METRICS):
        for model in models:
            points = sorted((r["k"], r["value"]) for r in rows if r["model"] == model and r["metric"] == metric)
            ax.plot([k for k, _ in points], [v for _, v in points], marker="o", markersize=3, label=model)
        ax.set_title(TITLES[metric])
        ax.set_xlabel("cut-off k")
        ax.set_xticks(range(1, 11))
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize="small")
    figure.suptitle(f"Evaluation using {dataset}")
    figure.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, format="png")
    return path
