"""Every domain's declarations, merged: the lake tables, dataset cards and drop reasons each ``lib/<domain>/owned.py``
declares.

A domain owns what it writes. Its ``owned`` module lists its lake tables (``LAKE_TABLES``, with schema, writing
asset and partition dimension) and, where it has them, its dataset card (``DATASET_CARD``), its drop reasons
(``DROP_REASONS``, a :class:`~citeworth_assets.lib.reasons.ReasonRegistry`) and where the lake counts them
(``DROP_TABLES``: each table and its reason column). The warehouse and the release writers read the merge, so adding a
domain touches that domain only.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from pathlib import Path
from types import ModuleType

import pyarrow as pa

from citeworth_assets import lib
from citeworth_assets.lib import lake
from citeworth_assets.lib.duckdb_limits import sql_literal
from citeworth_assets.lib.lake import LakeTable
from citeworth_assets.lib.reasons import DROP_REASON_SCHEMA

OWNED = "owned"


@cache
def owned_modules() -> tuple[ModuleType, ...]:
    """The ``owned`` module of every lib domain (a sub-package that has one), in name order."""
    names = sorted(info.name for info in pkgutil.iter_modules(lib.__path__) if info.ispkg)
    found = []
    for name in names:
        try:
            found.append(importlib.import_module(f"{lib.__name__}.{name}.{OWNED}"))
        except ModuleNotFoundError as error:
            if error.name != f"{lib.__name__}.{name}.{OWNED}":
                raise
    return tuple(found)


def domain_of(module: ModuleType) -> str:
    return module.__name__.split(".")[-2]


@cache
def lake_tables() -> dict[str, LakeTable]:
    """Every declared lake table by name; a name two domains declare is an error."""
    tables: dict[str, LakeTable] = {}
    for module in owned_modules():
        for table in getattr(module, "LAKE_TABLES", ()):
            if table.name in tables:
                raise ValueError(f"lake table {table.name} is declared twice ({domain_of(module)})")
            tables[table.name] = table
    return tables


def dataset_cards() -> dict:
    """domain -> its dataset card (:class:`~citeworth_assets.lib.dataset_cards.CardSpec`), for the domains that
    publish a release."""
    return {domain_of(m): m.DATASET_CARD for m in owned_modules() if hasattr(m, "DATASET_CARD")}


def drop_reason_table() -> pa.Table:
    """Every domain's drop reasons, with the lake table and column that count them (null where none does)."""
    rows = []
    for module in owned_modules():
        registry = getattr(module, "DROP_REASONS", None)
        if registry is None:
            continue
        tables = getattr(module, "DROP_TABLES", ())
        counted_in = ", ".join(table for table, _ in tables) or None
        counted_by = ", ".join(sorted({column for _, column in tables})) or None
        rows += [{**row, "counted_in": counted_in, "counted_by": counted_by} for row in registry.rows()]
    schema = DROP_REASON_SCHEMA.append(pa.field("counted_in", pa.string())).append(pa.field("counted_by", pa.string()))
    return pa.Table.from_pylist(rows, schema=schema)


def drop_count_sql(lake_root: Path) -> str:
    """A query counting every domain's drops per reason over the lake (domain, reason, dropped), reading the tables
    the domains name in ``DROP_TABLES``; empty before any of them has data. A view's definition: values are
    literals."""
    parts = []
    for module, (table, column) in _drop_tables():
        if not lake.has_data(lake_root, table):
            continue
        path, domain = sql_literal(lake.table_glob(lake_root, table)), sql_literal(domain_of(module))
        parts.append(
            f"SELECT {domain} AS domain, CAST({column} AS VARCHAR) AS reason, count(*) AS dropped "
            f"FROM read_parquet({path}, union_by_name = true, hive_partitioning = false) GROUP BY ALL"
        )
    empty = "SELECT NULL::VARCHAR AS domain, NULL::VARCHAR AS reason, NULL::BIGINT AS dropped WHERE false"
    return "\nUNION ALL\n".join(parts) or empty


def drop_count_assets() -> list[str]:
    """The assets that write the tables :func:`drop_count_sql` reads."""
    tables = lake_tables()
    return sorted({asset for _, (table, _) in _drop_tables() if table in tables for asset in tables[table].assets})


def _drop_tables() -> list[tuple[ModuleType, tuple[str, str]]]:
    return [(module, pair) for module in owned_modules() for pair in getattr(module, "DROP_TABLES", ())]
