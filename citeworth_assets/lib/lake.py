"""The Parquet lake: one folder per table, one sub-folder per partition, written atomically.

Layout: ``<lake>/<table>/<dimension>=<key>/part-<n>.parquet`` (``shard=20200705v1_0``, ``field=biology``).
Unpartitioned tables use the single folder ``all``.

A partition is written into ``<lake>/_staging/`` and moved into place only when every row is written,
so readers (DuckDB views globbing ``<table>/*/*.parquet``) never see half a partition, a crash
leaves nothing in the table, and a rerun replaces the partition instead of adding to it.
"""

from __future__ import annotations

import shutil
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

STAGING = "_staging"
UNPARTITIONED = "all"


def partition_dir(lake: Path, table: str, key: str | None = None, dimension: str = "shard") -> Path:
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
        dimension: str = "shard",
        batch_rows: int = 5_000,
    ):
        self.target = partition_dir(lake, table, key, dimension)
        self.staging = lake / STAGING / f"{table}.{key or UNPARTITIONED}.{uuid.uuid4().hex}"
        self.schema = schema
        self.batch_rows = batch_rows
        self.rows_written = 0
        self._batch: list[dict] = []
        self._writer: pq.ParquetWriter | None = None

    def __enter__(self) -> "PartitionWriter":
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


@contextmanager
def kept_and_dropped(
    lake: Path, kept: tuple[str, pa.Schema], dropped: tuple[str, pa.Schema], key: str, dimension: str = "shard"
) -> Iterator[tuple[PartitionWriter, PartitionWriter]]:
    """Writers of a step's two outputs for one partition: the rows it keeps and the rows it drops (with their
    reasons), each ``(table, schema)``. Both are published only if the block succeeds."""
    with (
        PartitionWriter(lake, *dropped, key, dimension) as dropped_writer,
        PartitionWriter(lake, *kept, key, dimension) as kept_writer,
    ):
        yield kept_writer, dropped_writer


def publish(staging: Path, target: Path) -> None:
    """Move a finished staging folder into place, replacing what was there."""
    target.parent.mkdir(parents=True, exist_ok=True)
    retired = None
    if target.exists():
        retired = staging.with_name(f"{staging.name}.retired")
        target.rename(retired)
    staging.rename(target)
    if retired is not None:
        shutil.rmtree(retired, ignore_errors=True)


@contextmanager
def replaced_folder(folder: Path) -> Iterator[Path]:
    """A staging folder that replaces ``folder`` atomically when the block succeeds (exports outside the lake)."""
    staging = folder.with_name(f".{folder.name}.{uuid.uuid4().hex}")
    staging.mkdir(parents=True)
    try:
        yield staging
        publish(staging, folder)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def write_partition(
    lake: Path, table: str, schema: pa.Schema, rows: Iterable[dict], key: str | None = None, dimension: str = "shard"
) -> int:
    """Write all ``rows`` as one partition; returns the row count."""
    with PartitionWriter(lake, table, schema, key, dimension) as writer:
        writer.write_all(rows)
    return writer.rows_written


def write_partition_from_query(
    lake: Path, table: str, sql: str, params: list, key: str | None = None, dimension: str = "shard"
) -> int:
    """Write the result of a DuckDB query as one partition (streamed by DuckDB, published atomically)."""
    target = partition_dir(lake, table, key, dimension)
    staging = lake / STAGING / f"{table}.{key or UNPARTITIONED}.{uuid.uuid4().hex}"
    staging.mkdir(parents=True)
    try:
        with duckdb.connect() as connection:
            path = str(staging / "part-0.parquet").replace("'", "''")
            connection.execute(f"COPY ({sql}) TO '{path}' (FORMAT parquet, COMPRESSION zstd)", params)
        rows = pq.ParquetFile(staging / "part-0.parquet").metadata.num_rows
        publish(staging, target)
        return rows
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def read_partition(
    lake: Path, table: str, key: str | None = None, columns: list[str] | None = None, dimension: str = "shard"
) -> pa.Table:
    folder = partition_dir(lake, table, key, dimension)
    if not folder.is_dir():
        raise FileNotFoundError(f"lake partition {folder} does not exist; materialize {table} for {key} first")
    return pq.read_table(folder, columns=columns)


def iter_partition_batches(
    lake: Path, table: str, key: str | None = None, columns: list[str] | None = None, dimension: str = "shard",
    batch_size: int = 20_000,
) -> Iterator[pa.RecordBatch]:
    """Record batches of a partition, so that a whole shard is never held in memory."""
    folder = partition_dir(lake, table, key, dimension)
    if not folder.is_dir():
        raise FileNotFoundError(f"lake partition {folder} does not exist; materialize {table} for {key} first")
    for path in sorted(folder.glob("*.parquet")):
        yield from pq.ParquetFile(path).iter_batches(columns=columns, batch_size=batch_size)


def iter_partition_rows(
    lake: Path, table: str, key: str | None = None, columns: list[str] | None = None, dimension: str = "shard"
) -> Iterator[dict]:
    """Rows of a partition as dicts, read batch by batch."""
    for batch in iter_partition_batches(lake, table, key, columns, dimension, batch_size=5_000):
        yield from batch.to_pylist()


def drop_partition(lake: Path, table: str, key: str | None = None, dimension: str = "shard") -> None:
    shutil.rmtree(partition_dir(lake, table, key, dimension), ignore_errors=True)
