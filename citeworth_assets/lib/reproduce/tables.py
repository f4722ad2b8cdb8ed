"""What a reproduced table is: the cells a build computes for one of a paper's tables, and how it computes them.

Each paper's tables live in ``<paper>.py`` of this package (``TABLES``); the registry (:mod:`.registry`) collects
them. A table's row and column labels are the paper's, exactly as ``published/<paper>.csv`` spells them, so that
the build's cells pair with the published ones.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    import duckdb

Connection: TypeAlias = "duckdb.DuckDBPyConnection"  # the warehouse, read-only; the caller opens it
BUILD = "citeworth build --dumps DUMPS --data DATA"  # what builds a table's views (the user's folders in capitals)
BUILD_MODELS = f"{BUILD} --models"


PAPERS = ("citeworth", "citesum", "sciqfs", "saier2019")


@dataclass(frozen=True)
class Cell:
    """One figure of ours: ``ours`` the number on the paper's scale, or None with the ``reason`` it is missing."""

    row: str
    column: str
    ours: float | None
    reason: str | None = None


@dataclass(frozen=True)
class PaperTable:
    """One published table: ``table`` is the paper's number as text ('4'); ``needs`` the warehouse relations
    (``schema.name``) ``compute`` reads; ``build_command`` the ``citeworth build`` command that builds them;
    ``differences`` what of the paper's setting the build differs in (input, model sizes, seeds)."""

    paper: str
    table: str
    title: str
    needs: tuple[str, ...]
    build_command: str
    differences: str
    compute: Callable[[Connection], list[Cell]]

    @property
    def key(self) -> str:
        """The table's id on the command line: ``<paper>:<table>`` (``citeworth:4``)."""
        return f"{self.paper}:{self.table}"


def missing(row: str, column: str, reason: str) -> Cell:
    """A cell the build cannot fill, and why."""
    return Cell(row, column, None, reason)


def relation_exists(connection: Connection, relation: str) -> bool:
    """Whether the warehouse holds ``schema.name`` (a view or a table)."""
    schema, name = relation.split(".")
    found = connection.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_schema = ? AND table_name = ?", [schema, name]
    ).fetchall()
    return found[0][0] > 0
