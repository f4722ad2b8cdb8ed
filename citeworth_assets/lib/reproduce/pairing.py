"""The published figures beside the build's: one row per (paper, table, row, column), with the difference, and a
reason wherever the build has no number.

A table is computed only when every relation it needs exists and has rows; otherwise each of its published cells
says which relation is absent or empty and the ``citeworth build`` command that builds it. A published cell the
table's computation leaves out gets "not computed" rather than a blank.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.reproduce.published import as_number, published
from citeworth_assets.lib.reproduce.registry import paper_tables
from citeworth_assets.lib.reproduce.tables import PAPERS, Cell, PaperTable, relation_exists

duckdb = lazy_module("duckdb")
pa = lazy_module("pyarrow")


@cache
def pair_schema() -> pa.Schema:
    return pa.schema(
        [
            ("paper", pa.string()),
            ("table", pa.string()),
            ("row", pa.string()),
            ("column", pa.string()),
            ("published", pa.string()),
            ("ours", pa.float64()),
            ("difference", pa.float64()),
            ("reason", pa.string()),
        ]
    )


@dataclass(frozen=True)
class Pair:
    """One cell of a table: the paper's printed value, ours, ours minus the paper's (where both are numbers), and
    why ours is missing."""

    paper: str
    table: str
    row: str
    column: str
    published: str | None
    ours: float | None
    difference: float | None
    reason: str | None


@dataclass(frozen=True)
class TableId:
    """A table as the command line names it, with what is known of it: its computation (None where no module of
    the platform computes it) and its published cells."""

    paper: str
    table: str
    spec: PaperTable | None

    @property
    def key(self) -> str:
        return f"{self.paper}:{self.table}"


def known_tables() -> list[TableId]:
    """Every table the platform computes or whose published figures it holds, in paper order then table number."""
    specs = {(spec.paper, spec.table): spec for spec in paper_tables()}
    keys = set(specs) | {(paper, table) for paper in PAPERS for table, _, _ in published(paper)}
    order = {paper: index for index, paper in enumerate(PAPERS)}
    ordered = sorted(keys, key=lambda key: (order.get(key[0], len(order)), _number(key[1]), key[1]))
    return [TableId(paper, table, specs.get((paper, table))) for paper, table in ordered]


def _number(table: str) -> int:
    return int(table) if table.isdigit() else 1_000_000


class UnknownTable(ValueError):
    """A table id on the command line that names no known table."""


def select(ids: Iterable[str]) -> list[TableId]:
    """The tables named by ``paper:table`` (``citeworth:4``) or ``paper`` (all of its tables); all when none."""
    known = known_tables()
    wanted = list(ids)
    if not wanted:
        return known
    chosen: list[TableId] = []
    for name in wanted:
        found = [t for t in known if name in (t.key, t.paper)]
        if not found:
            raise UnknownTable(
                f"unknown table {name!r}: use one of {', '.join(t.key for t in known)} (or a paper name)"
            )
        chosen += [t for t in found if t not in chosen]
    return chosen


def relation_state(connection: duckdb.DuckDBPyConnection | None, relation: str) -> str | None:
    """Why a relation cannot be read ("absent", "empty", "no warehouse"), or None when it has rows."""
    if connection is None:
        return "no warehouse"
    if not relation_exists(connection, relation):
        return "absent"
    schema, name = relation.split(".")
    try:
        rows = connection.execute(f'SELECT count(*) FROM (SELECT 1 FROM "{schema}"."{name}" LIMIT 1)').fetchall()[0][0]
    except duckdb.Error as error:  # a view over lake files that are gone
        return f"unreadable ({str(error).splitlines()[0]})"
    return None if rows else "empty"


def unbuilt(spec: PaperTable, connection: duckdb.DuckDBPyConnection | None) -> dict[str, str]:
    """The relations a table needs that cannot be read, with why."""
    states = {relation: relation_state(connection, relation) for relation in spec.needs}
    return {relation: state for relation, state in states.items() if state}


def our_cells(table: TableId, connection: duckdb.DuckDBPyConnection | None) -> tuple[list[Cell], str | None]:
    """The build's cells of a table, and the reason for the published cells they leave out.

    With some of its relations unbuilt, a table is still computed (its other cells may come from the relations
    that are there); a query that fails on the missing ones leaves every cell to the reason that names them."""
    spec = table.spec
    if spec is None:
        return [], f"not computed: no module of the platform computes {table.key} yet"
    if connection is None:
        return [], f"not built: no warehouse yet; run `{spec.build_command}`"
    missing = unbuilt(spec, connection)
    reason = None
    if missing:
        listed = ", ".join(f"{relation} {state}" for relation, state in missing.items())
        reason = f"not built: {listed}; run `{spec.build_command}`"
        if len(missing) == len(spec.needs):
            return [], reason
    try:
        return spec.compute(connection), reason
    except duckdb.Error as error:
        return [], reason or f"not computed: the query failed ({str(error).splitlines()[0]})"


def pair_table(table: TableId, cells: list[Cell], reason: str | None = None) -> list[Pair]:
    """The table's published cells in the paper's order, each with ours; then our cells the paper does not have.

    ``reason``: why the build has no figure for the published cells ``cells`` leave out (all of them, when the
    build has no cells at all)."""
    values = {
        (row, column): value for (number, row, column), value in published(table.paper).items() if number == table.table
    }
    ours = {(cell.row, cell.column): cell for cell in cells}
    pairs = []
    for (row, column), value in values.items():
        cell = ours.get((row, column))
        if cell is None:
            why = reason or f"not computed: the build gives no figure for {row} / {column}"
            pairs.append(Pair(table.paper, table.table, row, column, value, None, None, why))
        else:
            pairs.append(_pair(table, cell, value))
    pairs += [_pair(table, cell, None) for key, cell in ours.items() if key not in values]
    return pairs


def _pair(table: TableId, cell: Cell, value: str | None) -> Pair:
    reason = cell.reason
    ours = None if cell.ours is None else float(cell.ours)  # a DECIMAL column gives Decimal
    if ours is None and not reason:
        reason = "not computed: no reason given"
    number = as_number(value)
    difference = ours - number if ours is not None and number is not None else None
    return Pair(table.paper, table.table, cell.row, cell.column, value, ours, difference, reason)


def reproduce(tables: list[TableId], connection: duckdb.DuckDBPyConnection | None) -> list[tuple[TableId, list[Pair]]]:
    """Each table with its pairs, computed from the warehouse (None: no warehouse, every cell says so)."""
    done = []
    for table in tables:
        cells, reason = our_cells(table, connection)
        done.append((table, pair_table(table, cells, reason)))
    return done


def pair_rows(done: list[tuple[TableId, list[Pair]]]) -> pa.Table:
    """The pairs as one Arrow table with :func:`pair_schema` (what ``platform.paper_tables`` holds)."""
    rows = [pair.__dict__ for _, pairs in done for pair in pairs]
    return pa.Table.from_pylist(rows, schema=pair_schema())
