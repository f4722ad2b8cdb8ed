"""The DuckDB warehouse: views over the lake and small tables, one schema per domain.

DuckDB lets one process write a database file, and a writer cannot open it while another process
holds it, even read-only. So that an analyst can keep ``warehouse.duckdb`` open while the platform
runs, writes are copy-on-write: the writer works on a private copy and atomically renames it over the
warehouse. Open read-only connections keep reading the version they opened (the old file stays alive
until they close it) and see the new views on their next connection. Writers are serialised by a
lock file beside the warehouse (and by the Dagster ``warehouse`` pool), so no update is lost.
Since the lake is the source of truth and views read it directly, new partitions show up in the
views without rewriting the warehouse.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from citeworth_assets.lib.duckdb_limits import bounded, sql_literal
from citeworth_assets.lib.lake import has_data, table_glob
from citeworth_assets.lib.lazy import lazy_module

duckdb = lazy_module("duckdb")
pa = lazy_module("pyarrow")

_BUILDS: dict[Path, Path] = {}  # warehouse -> the build draft its writers publish into (see published_whole)
# The same for the run processes a build starts: the build draft of the warehouse named in it, passed down.
BUILD_DRAFT_ENV = "CITEWORTH_WAREHOUSE_BUILD_DRAFT"


class WarehouseBuild:
    """The handle of :func:`published_whole`: set ``complete = False`` to discard the build's writes."""

    def __init__(self, draft: Path):
        self.draft = draft
        self.complete = True


@contextmanager
def published_whole(warehouse: Path) -> Iterator[WarehouseBuild]:
    """Within this block (in this process), :func:`writing` publishes into one build draft, and the warehouse
    is replaced by it once at the end, if the block succeeds and ``complete`` is still true.

    So a build that stops half-way (a kill, a failed asset) leaves the previous warehouse, or none, never
    one with some schemas of the new build only. The draft is named like a writer's, so a crash's draft
    is removed by the next writer.
    """
    warehouse.parent.mkdir(parents=True, exist_ok=True)
    draft = warehouse.with_name(f".{warehouse.name}.{os.getpid()}-{uuid.uuid4().hex}.build.draft")
    if warehouse.exists():
        shutil.copyfile(warehouse, draft)
    build = WarehouseBuild(draft)
    _BUILDS[warehouse.resolve()] = draft
    try:
        yield build
        if build.complete and draft.exists():
            with open(warehouse.with_name(warehouse.name + ".lock"), "w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                os.replace(draft, warehouse)
    finally:
        _BUILDS.pop(warehouse.resolve(), None)
        for leftover in (draft, draft.with_name(draft.name + ".wal")):
            leftover.unlink(missing_ok=True)


@contextmanager
def writing(warehouse: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    """A read-write connection to a private copy of the warehouse, published when the block succeeds."""
    warehouse.parent.mkdir(parents=True, exist_ok=True)
    build = _BUILDS.get(warehouse.resolve()) or _inherited_build(warehouse)
    with open(warehouse.with_name(warehouse.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        remove_stale_drafts(warehouse, keep=build)  # every other draft belongs to a crashed writer
        target = build or warehouse
        draft = warehouse.with_name(f".{warehouse.name}.{uuid.uuid4().hex}.draft")
        if target.exists():
            shutil.copyfile(target, draft)
        try:
            connection = bounded(draft)
            try:
                yield connection
                connection.execute("CHECKPOINT")
            finally:
                connection.close()
            os.replace(draft, target)
        finally:
            for leftover in (draft, draft.with_name(draft.name + ".wal")):
                leftover.unlink(missing_ok=True)


def _inherited_build(warehouse: Path) -> Path | None:
    """The build draft the build that started this run process named for this warehouse (its run processes live
    only while it does)."""
    named = os.environ.get(BUILD_DRAFT_ENV)
    if not named:
        return None
    draft = Path(named)
    return draft if draft.parent.resolve() == warehouse.parent.resolve() else None


def draft_builder(draft: Path) -> int | None:
    """The process id of the build that made a build draft of :func:`published_whole` (``None`` for another draft):
    what the draft held, that build's warehouse writes, never reached the warehouse if the draft is left over."""
    name = draft.name
    if not name.endswith(".build.draft"):
        return None
    pid = name.removesuffix(".build.draft").rsplit(".", 1)[-1].split("-", 1)[0]
    return int(pid) if pid.isdigit() else None


def remove_stale_drafts(warehouse: Path, keep: Path | None = None) -> list[Path]:
    """Delete the drafts (and their WAL files) that crashed writers left beside the warehouse, except ``keep``
    (the live build draft of :func:`published_whole`, if any).

    Call it only while holding the warehouse lock, as :func:`writing` does.
    """
    stale = sorted(warehouse.parent.glob(f".{warehouse.name}.*.draft")) + sorted(
        warehouse.parent.glob(f".{warehouse.name}.*.draft.wal")
    )
    if keep is not None:
        stale = [path for path in stale if path not in (keep, keep.with_name(keep.name + ".wal"))]
    for path in stale:
        path.unlink(missing_ok=True)
    return stale


def reading(warehouse: Path) -> duckdb.DuckDBPyConnection:
    """A read-only connection, as an analyst would open it (inside :func:`published_whole`: to the build's draft,
    so that the build's own checks see what it wrote)."""
    build = _BUILDS.get(warehouse.resolve()) or _inherited_build(warehouse)
    if build is not None and build.exists():
        return bounded(build, read_only=True)
    if not warehouse.exists():
        raise FileNotFoundError(f"warehouse {warehouse} does not exist yet; materialize the graph first")
    return bounded(warehouse, read_only=True)


def first_row(connection: duckdb.DuckDBPyConnection, sql: str, params=None) -> tuple:
    """The first row of a query, with the result consumed (DuckDB 2 refuses new work on an unfinished result)."""
    return connection.execute(sql, params).fetchall()[0]


def _drop_relation(connection: duckdb.DuckDBPyConnection, name: str) -> None:
    schema, table = name.split(".")
    kinds = connection.execute(
        "SELECT table_type FROM information_schema.tables WHERE table_schema = ? AND table_name = ?", [schema, table]
    ).fetchall()
    for (kind,) in kinds:
        connection.execute(f"DROP {'VIEW' if kind == 'VIEW' else 'TABLE'} {name}")


def _ensure_schema(connection: duckdb.DuckDBPyConnection, name: str) -> None:
    connection.execute(f"CREATE SCHEMA IF NOT EXISTS {name.split('.')[0]}")


def create_lake_view(
    connection: duckdb.DuckDBPyConnection,
    name: str,
    lake: Path,
    table: str,
    schema: pa.Schema,
    partition_column: str | None = None,
) -> None:
    """``name`` (``schema.view``) as a view over every partition of a lake table.

    ``partition_column``: a column holding each row's partition key (its folder ``<column>=<key>``), for tables
    whose rows do not name it. A table with no partitions yet gets an empty relation with the table's columns, so
    queries and models that select from it work before the first shard arrives.
    """
    _ensure_schema(connection, name)
    _drop_relation(connection, name)
    if has_data(lake, table):
        path = sql_literal(table_glob(lake, table))
        partitions = "hive_partitioning = false"
        if partition_column:  # the folder's key as text, whatever it looks like (0, 2024-01)
            partitions = f"hive_partitioning = true, hive_types = {{{sql_literal(partition_column)}: VARCHAR}}"
        connection.execute(
            f"CREATE VIEW {name} AS SELECT * FROM read_parquet({path}, union_by_name = true, {partitions})"
        )
    else:
        if partition_column:
            schema = schema.append(pa.field(partition_column, pa.string()))
        empty = schema.empty_table()  # noqa: F841  (read by DuckDB's replacement scan)
        connection.execute(f"CREATE TABLE {name} AS SELECT * FROM empty")


def create_relation(
    connection: duckdb.DuckDBPyConnection,
    name: str,
    sql: str,
    materialized: str = "view",
    description: str | None = None,
) -> int | None:
    """Create (or replace) ``name`` from a SELECT, with its description as the relation's comment (what
    ``duckdb_views()`` and ``duckdb_tables()`` show an analyst); returns the row count of a table."""
    _ensure_schema(connection, name)
    _drop_relation(connection, name)
    kind = "TABLE" if materialized == "table" else "VIEW"
    connection.execute(f"CREATE {kind} {name} AS {sql}")
    if description:
        connection.execute(f"COMMENT ON {kind} {name} IS {sql_literal(description)}")
    if kind == "TABLE":
        return first_row(connection, f"SELECT count(*) FROM {name}")[0]
    return None


def replace_table(connection: duckdb.DuckDBPyConnection, name: str, table: pa.Table) -> None:
    """Store a small Arrow table as a warehouse table."""
    _ensure_schema(connection, name)
    _drop_relation(connection, name)
    connection.register("incoming_table", table)
    connection.execute(f"CREATE TABLE {name} AS SELECT * FROM incoming_table")
    connection.unregister("incoming_table")


def markdown_table(table: pa.Table, limit: int = 20) -> str:
    """A small Arrow table as Markdown, for asset metadata."""
    if table.num_rows == 0:
        return "(no rows)"
    header = "| " + " | ".join(table.column_names) + " |"
    rule = "|" + "---|" * len(table.column_names)
    body = ["| " + " | ".join(str(value) for value in row.values()) + " |" for row in table.slice(0, limit).to_pylist()]
    return "\n".join([header, rule, *body])


def relation_counts(warehouse: Path) -> dict[str, int]:
    """Rows of every relation (view or table, ``schema.name``) of a warehouse file: what two builds are compared by."""
    connection = bounded(warehouse, read_only=True)
    try:
        names = connection.execute(
            "SELECT schema_name, view_name FROM duckdb_views() WHERE NOT internal "
            "UNION ALL SELECT schema_name, table_name FROM duckdb_tables() WHERE NOT internal"
        ).fetchall()
        return {
            f"{schema}.{name}": first_row(connection, f'SELECT count(*) FROM "{schema}"."{name}"')[0]
            for schema, name in sorted(names)
        }
    finally:
        connection.close()
