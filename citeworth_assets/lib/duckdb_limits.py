"""What a DuckDB connection of the platform may use, so that joins over the catalogue stay within a memory budget.

DuckDB spills sorts, aggregates and hash joins to ``temp_directory`` beyond ``memory_limit``; with both set,
a process's memory is bounded by the setting, never by the size of the tables it joins. Without a limit DuckDB
takes up to 80% of the machine's memory, so every connection the platform opens goes through :func:`bounded`
(or :meth:`DuckDbLimits.connect` where the threads matter too), under ``CITEWORTH_DUCKDB_MEMORY``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.settings import check_setting

duckdb = lazy_module("duckdb")

MEMORY_ENV, DEFAULT_MEMORY = "CITEWORTH_DUCKDB_MEMORY", "512MB"  # as lib.settings names them


def sql_literal(text: str | Path) -> str:
    """``text`` as a SQL string literal, for the statements DuckDB cannot prepare: the definition of a view (``CREATE
    VIEW ... AS SELECT ... FROM read_parquet('<path>')`` stores its SQL, so a path must be written into it) and
    ``COMMENT ON``. Everywhere else a value is a parameter (``?``), never spliced into the SQL."""
    return "'" + str(text).replace("'", "''") + "'"


@dataclass(frozen=True)
class DuckDbLimits:
    """``memory_limit`` (a DuckDB size such as ``1GB``) and ``threads`` of every connection that joins big tables."""

    memory_limit: str = DEFAULT_MEMORY
    threads: int = 2

    def __post_init__(self):
        check_setting("duckdb_memory", self.memory_limit)

    @classmethod
    def from_environment(cls) -> DuckDbLimits:
        """The limits ``CITEWORTH_DUCKDB_MEMORY`` sets (the default where it is unset); names it when it is wrong."""
        return cls(os.environ.get(MEMORY_ENV) or DEFAULT_MEMORY)

    def connect(self, temp: Path | None = None) -> duckdb.DuckDBPyConnection:
        """An in-memory connection under these limits, spilling to ``temp`` (DuckDB's default folder when None)."""
        connection = duckdb.connect()
        connection.execute(f"SET memory_limit = '{self.memory_limit.strip()}'")
        connection.execute(f"SET threads = {int(self.threads)}")
        if temp is not None:
            Path(temp).mkdir(parents=True, exist_ok=True)
            connection.execute("SET temp_directory = ?", [str(temp)])
        connection.execute("SET preserve_insertion_order = false")
        return connection


def bounded(database: str | Path = ":memory:", read_only: bool = False) -> duckdb.DuckDBPyConnection:
    """A connection (in memory, or to a database file) whose memory is bounded by ``CITEWORTH_DUCKDB_MEMORY``.

    Only the memory is set: threads and insertion order stay DuckDB's, so results come in the same order as from
    a plain connection."""
    limits = DuckDbLimits.from_environment()
    connection = duckdb.connect(str(database), read_only=read_only)
    connection.execute(f"SET memory_limit = '{limits.memory_limit.strip()}'")
    return connection
