"""Every domain's declarations, merged: the lake tables, dataset cards and drop reasons each ``lib/<domain>/owned.py``
declares.

A domain owns what it writes. Its ``owned`` module lists its lake tables (``LAKE_TABLES``, with schema, writing
asset and partition dimension) and, where it has them, its dataset card (``DATASET_CARD``), its drop reasons
(``DROP_REASONS``, a :class:`~citeworth_assets.lib.reasons.ReasonRegistry`) and the steps whose filter runs tally
them (``FILTER_STEPS``: the assets that write the shared lake table ``filter_tallies``, see
:mod:`~citeworth_assets.lib.filters`). The warehouse and the release writers read the merge, so adding a domain
touches that domain only.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from types import ModuleType

from citeworth_assets import lib
from citeworth_assets.lib import filters
from citeworth_assets.lib.lake import LakeTable
from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.reasons import drop_reason_schema

pa = lazy_module("pyarrow")

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
    """Every declared lake table by name, and the filters' shared tally table; a name two domains declare is an
    error."""
    tables: dict[str, LakeTable] = {}
    for module in owned_modules():
        for table in getattr(module, "LAKE_TABLES", ()):
            if table.name in tables:
                raise ValueError(f"lake table {table.name} is declared twice ({domain_of(module)})")
            tables[table.name] = table
    steps = tuple(dict.fromkeys(step for module in owned_modules() for step in getattr(module, "FILTER_STEPS", ())))
    tables[filters.TALLY_TABLE] = LakeTable(filters.TALLY_TABLE, filters.tally_schema, steps, filters.TALLY_DIMENSION)
    return tables


def dataset_cards() -> dict:
    """domain -> its dataset card (:class:`~citeworth_assets.lib.dataset_cards.CardSpec`), for the domains that
    publish a release."""
    return {domain_of(m): m.DATASET_CARD for m in owned_modules() if hasattr(m, "DATASET_CARD")}


def drop_reason_table() -> pa.Table:
    """Every domain's drop reasons, with the steps whose tallies count them (null where none does)."""
    rows = []
    for module in owned_modules():
        registry = getattr(module, "DROP_REASONS", None)
        if registry is None:
            continue
        counted_in = ", ".join(getattr(module, "FILTER_STEPS", ())) or None
        rows += [{**row, "counted_in": counted_in} for row in registry.rows()]
    return pa.Table.from_pylist(rows, schema=drop_reason_schema().append(pa.field("counted_in", pa.string())))
