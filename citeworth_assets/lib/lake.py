"""The Parquet lake: one folder per table, one sub-folder per partition, written atomically.

Layout: ``<lake>/<table>/<dimension>=<key>/part-<n>.parquet`` (``shard=20200705v1_0``, ``field=biology``).
Unpartitioned tables use the single folder ``all``.

A partition is written into ``<lake>/_staging/`` and moved into place only when every row is written,
so readers (DuckDB views globbing ``<table>/*/*.parquet``) never see half a partition, a crash
leaves nothing in the table, and a rerun replaces the partition instead of adding to it.
"""

from __future__ import annotations

import os
import shutil
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from citeworth_assets.lib.duckdb_limits import bounded
from citeworth_assets.lib.lazy import lazy_module

pa = lazy_module("pyarrow")
pq = lazy_module("pyarrow.parquet")

STAGING = "_staging"
SHARD_DIMENSION = "shard"  # the partition dimension of the per-shard tables, and the default
UNPARTITIONED = "all"


@dataclass(frozen=True)
class LakeTable:
    """A lake table as its domain declares it: the columns (``columns()`` builds the schema, on first use, so that
    declaring a table costs no pyarrow import), the asset that writes it, and the partition dimension of its folders
    (None: one unpartitioned folder). A table several assets write, each its own partitions (ROUGE-SciQFS
    per S2ORC shard and per unarXive dump file), names them all with their dimensions. The warehouse merges every
    domain's declarations (:func:`citeworth_assets.lib.domains.lake_tables`)."""

    name: str
    columns: Callable[[], pa.Schema]
    asset: str | tuple[str, ...]
    dimension: str | tuple[str, ...] | None = None

    @property
    def schema(self) -> pa.Schema:
        return self.columns()

    @property
    def assets(self) -> tuple[str, ...]:
        return (self.asset,) if isinstance(self.asset, str) else self.asset

    @property
    def partition_column(self) -> str | None:
        """The column that names a row's partition in the warehouse's view of the table (the dimension, from the
        folder name), where the rows do not carry it themselves: views join per-file tables on it."""
        if isinstance(self.dimension, str) and self.dimension not in self.schema.names:
            return self.dimension
        return None


def partition_dir(lake: Path, table: str, key: str | None = None, dimension: str = SHARD_DIMENSION) -> Path:
    return lake / table / (f"{dimension}={key}" if key is not None else UNPARTITIONED)


def table_glob(lake: Path, table: str) -> str:
    """The glob of every Parquet file of a table, for DuckDB's ``read_parquet``."""
    return str(lake / table / "*" / "*.parquet")


def has_data(lake: Path, table: str) -> bool:
    return any((lake / table).glob("*/*.parquet"))


class PartitionWriter:
    """Streams rows into one lake partition and publishes it atomically on success.

    Use as a context manager; ``write`` takes row dicts and flushes them in batches of
    ``batch_rows`` so memory stays bounded whatever the partition size. An exception inside the
    block discards everything written.
    """

    def __init__(
        self,
        lake: Path,
        table: str,
        schema: pa.Schema,
        key: str | None = None,
        dimension: str = SHARD_DIMENSION,
        batch_rows: int = 5_000,
    ):
        self.target = partition_dir(lake, table, key, dimension)
        self.staging = lake / STAGING / f"{table}.{key or UNPARTITIONED}.{uuid.uuid4().hex}"
        self.schema = schema
        self.batch_rows = batch_rows
        self.rows_written = 0
        self._batch: list[dict] = []
        self._writer: pq.ParquetWriter | None = None

    def __enter__(self) -> PartitionWriter:
        self.staging.mkdir(parents=True)
        self._writer = pq.ParquetWriter(self.staging / "part-0.parquet", self.schema, compression="zstd")
        return self

    def write(self, row: dict) -> None:
        self._batch.append(row)
        if len(self._batch) >= self.batch_rows:
            self._flush()

    def write_all(self, rows: Iterable[dict]) -> None:
        for row in rows:
            self.write(row)

    def write_table(self, table: pa.Table) -> None:
        self._flush()
        self._writer.write_table(table.select(self.schema.names).cast(self.schema))
        self.rows_written += table.num_rows

    def _flush(self) -> None:
        if self._batch:
            # Column lists convert to Arrow about twice as fast as a list of row dicts.
            columns = {name: [row.get(name) for row in self._batch] for name in self.schema.names}
            self._writer.write_table(pa.Table.from_pydict(columns, schema=self.schema))
            self.rows_written += len(self._batch)
            self._batch = []

    def __exit__(self, exc_type, exc, tb) -> None:
        try:
            if exc_type is None:
                self._flush()
                self._writer.close()
                publish(self.staging, self.target)
            else:
                self._writer.close()
        finally:
            shutil.rmtree(self.staging, ignore_errors=True)


def publish(staging: Path, target: Path) -> None:
    """Move a finished staging folder into place, replacing what was there.

    An existing target is swapped with the staging folder in one atomic ``renameat2(RENAME_EXCHANGE)``
    where the kernel offers it, so that a crash at any point leaves either the old or the new partition
    readable. Elsewhere the old one is renamed aside first; a crash between the two renames leaves it in
    staging as ``<name>.retired`` (naming its partition), and :func:`clean_stale_staging` moves it back.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.exists() and _exchange(staging, target):
        shutil.rmtree(staging, ignore_errors=True)  # now holds the old partition
        return
    retired = None
    if target.exists():
        retired = staging.with_name(f"{staging.name}.retired")
        (target / RETIRED_FROM).write_text(str(target))  # before the rename: a retired folder always says where from
        target.rename(retired)
    staging.rename(target)
    if retired is not None:
        shutil.rmtree(retired, ignore_errors=True)


RETIRED_FROM = ".retired_from"  # names the partition a retired folder goes back to after a crash
STALE_SECONDS = 3600.0


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths atomically (Linux renameat2 RENAME_EXCHANGE); False where that is not available."""
    try:
        import ctypes

        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    return renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0


def _newest_change(path: Path) -> float:
    """The latest modification time of a folder and anything in it (a writer keeps touching its files)."""
    try:
        newest = path.stat().st_mtime
        if path.is_dir():
            for child in path.rglob("*"):
                newest = max(newest, child.stat().st_mtime)
        return newest
    except FileNotFoundError:
        return 0.0


def clean_stale_staging(lake: Path, older_than: float = STALE_SECONDS, now: float | None = None) -> list[str]:
    """Remove what crashed writers left in ``<lake>/_staging`` (untouched for ``older_than`` seconds); a retired
    partition whose replacement never arrived is moved back first. Returns what was removed or restored."""
    now = time.time() if now is None else now
    done: list[str] = []
    root = lake / STAGING
    if not root.is_dir():
        return done
    for entry in sorted(root.iterdir()):
        if now - _newest_change(entry) < older_than:
            continue  # a writer may still be at work
        marker = entry / RETIRED_FROM
        if entry.is_dir() and marker.exists():
            target = Path(marker.read_text())
            if not target.exists():
                marker.unlink()
                entry.rename(target)
                done.append(f"restored {target}")
                continue
        if entry.is_dir():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)
        done.append(f"removed {entry}")
    return done


EXPORT_STAGING = ".staging"


@contextmanager
def replaced_folder(folder: Path) -> Iterator[Path]:
    """A staging folder that replaces ``folder`` atomically when the block succeeds (exports outside the lake).

    The staging folder is ``<parent>/.staging/<name>.<uuid>``: one level deeper than the final folder, so
    that no glob of final names (``exports/*/train.jsonl``) sees a half-written file. What a crash left
    there (or beside the folder, where it used to be staged) is removed by the next export once stale.
    """
    root = folder.parent / EXPORT_STAGING
    root.mkdir(parents=True, exist_ok=True)
    now = time.time()
    for leftover in [*root.glob(f"{folder.name}.*"), *folder.parent.glob(f".{folder.name}.*")]:
        if now - _newest_change(leftover) >= STALE_SECONDS:
            shutil.rmtree(leftover, ignore_errors=True)
    staging = root / f"{folder.name}.{uuid.uuid4().hex}"
    staging.mkdir()
    try:
        yield staging
        publish(staging, folder)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def write_partition(
    lake: Path,
    table: str,
    schema: pa.Schema,
    rows: Iterable[dict],
    key: str | None = None,
    dimension: str = SHARD_DIMENSION,
) -> int:
    """Write all ``rows`` as one partition; returns the row count."""
    with PartitionWriter(lake, table, schema, key, dimension) as writer:
        writer.write_all(rows)
    return writer.rows_written


def write_partition_from_query(
    lake: Path, table: str, sql: str, params: list | dict, key: str | None = None, dimension: str = SHARD_DIMENSION
) -> int:
    """Write the result of a DuckDB query as one partition (streamed by DuckDB, published atomically); ``params``
    are the query's parameters, positional (``?``) or named (``$name``; ``$target`` is taken)."""
    target = partition_dir(lake, table, key, dimension)
    staging = lake / STAGING / f"{table}.{key or UNPARTITIONED}.{uuid.uuid4().hex}"
    staging.mkdir(parents=True)
    try:
        with bounded() as connection:
            file = str(staging / "part-0.parquet")
            if isinstance(params, dict):
                copy, params = f"COPY ({sql}) TO $target", {**params, "target": file}
            else:  # the file is the statement's last parameter, after the query's own
                copy, params = f"COPY ({sql}) TO ?", [*params, file]
            connection.execute(f"{copy} (FORMAT parquet, COMPRESSION zstd)", params)
        rows = pq.ParquetFile(staging / "part-0.parquet").metadata.num_rows
        publish(staging, target)
        return rows
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def read_partition(
    lake: Path, table: str, key: str | None = None, columns: list[str] | None = None, dimension: str = SHARD_DIMENSION
) -> pa.Table:
    folder = partition_dir(lake, table, key, dimension)
    if not folder.is_dir():
        raise FileNotFoundError(f"lake partition {folder} does not exist; materialize {table} for {key} first")
    return pq.read_table(folder, columns=columns)


def iter_partition_batches(
    lake: Path,
    table: str,
    key: str | None = None,
    columns: list[str] | None = None,
    dimension: str = SHARD_DIMENSION,
    batch_size: int = 20_000,
) -> Iterator[pa.RecordBatch]:
    """Record batches of a partition, so that a whole shard is never held in memory."""
    folder = partition_dir(lake, table, key, dimension)
    if not folder.is_dir():
        raise FileNotFoundError(f"lake partition {folder} does not exist; materialize {table} for {key} first")
    for path in sorted(folder.glob("*.parquet")):
        yield from pq.ParquetFile(path).iter_batches(columns=columns, batch_size=batch_size)


def iter_partition_rows(
    lake: Path, table: str, key: str | None = None, columns: list[str] | None = None, dimension: str = SHARD_DIMENSION
) -> Iterator[dict]:
    """Rows of a partition as dicts, read batch by batch."""
    for batch in iter_partition_batches(lake, table, key, columns, dimension, batch_size=5_000):
        yield from batch.to_pylist()


def iter_table_rows(lake: Path, table: str, columns: list[str]) -> Iterator[dict]:
    """Rows of every partition of a table (partitions in key order), read batch by batch."""
    for folder in sorted(p for p in (lake / table).glob("*") if p.is_dir()):
        for path in sorted(folder.glob("*.parquet")):
            for batch in pq.ParquetFile(path).iter_batches(columns=columns, batch_size=5_000):
                yield from batch.to_pylist()


def sorted_rows(lake: Path, ignored: tuple[str, ...] = ("run_id",)) -> dict[str, list[tuple]]:
    """Every table of the lake as its rows, sorted: two builds gave the same output when these are equal, whatever
    order their partitions were written in. The ``ignored`` columns are left out: an MLflow run id (the ROUGE-SciQFS
    rankers of every build) names its run, so two builds differ there by design."""
    tables = {}
    columns = "COLUMNS(lambda c: NOT list_contains(?, c))"
    with bounded() as connection:
        for folder in sorted(p for p in lake.iterdir() if p.is_dir() and not p.name.startswith("_")):
            sql = f"SELECT {columns} FROM read_parquet(?) ORDER BY ALL"
            tables[folder.name] = connection.execute(sql, [list(ignored), str(folder / "*" / "*.parquet")]).fetchall()
    return tables


def drop_partition(lake: Path, table: str, key: str | None = None, dimension: str = SHARD_DIMENSION) -> None:
    shutil.rmtree(partition_dir(lake, table, key, dimension), ignore_errors=True)
