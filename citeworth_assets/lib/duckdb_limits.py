"""What a DuckDB connection of the platform may use, so that joins over the catalogue stay within a memory budget.

DuckDB spills sorts, aggregates and hash joins to ``temp_directory`` beyond ``memory_limit``; with both set,
a process's memory is bounded by the setting, never by the size of the tables it joins.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import duckdb

MEMORY = re.compile(r"^\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$", re.IGNORECASE)


@dataclass(frozen=True)
class DuckDbLimits:
    """``memory_limit`` (a DuckDB size such as ``1GB``) and ``threads`` of every connection that joins big tables."""

    memory_limit: str = "512MB"
    threads: int = 2

    def __post_init__(self):
        if not MEMORY.match(self.memory_limit.strip()):
            raise ValueError(f"DuckDB memory limit {self.memory_limit!r}: expected a size such as 512MB or 2GB")

    def connect(self, temp: Path | None = None) -> duckdb.DuckDBPyConnection:
        """An in-memory connection under these limits, spilling to ``temp`` (DuckDB's default folder when None)."""
        connection = duckdb.connect()
        connection.execute(f"SET memory_limit = '{self.memory_limit.strip()}'")
        connection.execute(f"SET threads = {int(self.threads)}")
        if temp is not None:
            Path(temp).mkdir(parents=True, exist_ok=True)
            connection.execute(f"SET temp_directory = '{str(temp).replace(chr(39), chr(39) * 2)}'")
        connection.execute("SET preserve_insertion_order = false")
        return connection
