"""Lake tables of the model domain: the model comparison (Table 4) and the cross-field matrix (Table 5)."""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from functools import cache

from citeworth_assets.lib.lazy import lazy_module

pa = lazy_module("pyarrow")


@cache
def comparison_schema() -> pa.Schema:
    return pa.schema(
        [
            ("model", pa.string()),
            ("run_id", pa.string()),
            ("precision", pa.float64()),
            ("recall", pa.float64()),
            ("f1", pa.float64()),
            ("dataset_version", pa.string()),
        ]
    )


@cache
def domain_schema() -> pa.Schema:
    return pa.schema([("train_field", pa.string()), ("test_field", pa.string()), ("f1", pa.float64())])


def domain_matrix(fields: Sequence[str], f1: Callable[[str, str], float | None]) -> list[dict]:
    """Table 5: ``f1(train_field, test_field)`` for every pair of fields, then a ``std`` row with each test
    field's population standard deviation over the pairs that have a score."""
    rows = [{"train_field": a, "test_field": b, "f1": f1(a, b)} for a in fields for b in fields]
    for test_field in fields:
        column = [row["f1"] for row in rows if row["test_field"] == test_field and row["f1"] is not None]
        std = round(statistics.pstdev(column), 4) if len(column) > 1 else None
        rows.append({"train_field": "std", "test_field": test_field, "f1": std})
    return rows
