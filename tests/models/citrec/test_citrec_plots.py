"""The metric-against-k plot is written as a PNG and refuses ambiguous input."""

import pyarrow as pa
import pytest

from citeworth_models.citrec.evaluate import result_schema
from citeworth_models.citrec.plots import plot_metrics


def results(datasets=("toy",)):
    rows = [
        {"model": m, "dataset": d, "metric": metric, "k": k, "value": k / (10 + i), "items": 5}
        for d in datasets
        for i, m in enumerate(("bow", "claim+bow"))
        for metric in ("recall", "mrr", "map", "ndcg")
        for k in range(1, 11)
    ]
    return pa.Table.from_pylist(rows, schema=result_schema())


def test_png_is_written(tmp_path):
    path = plot_metrics(results(), tmp_path / "plots" / "toy.png")
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000


def test_several_datasets_need_a_name(tmp_path):
    with pytest.raises(ValueError, match="name the one"):
        plot_metrics(results(("a", "b")), tmp_path / "x.png")
    assert plot_metrics(results(("a", "b")), tmp_path / "b.png", dataset="b").exists()
    with pytest.raises(ValueError, match="no results"):
        plot_metrics(results(), tmp_path / "c.png", dataset="c")
