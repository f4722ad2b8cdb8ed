"""Dataset releases: one JSON-lines file per split in a dataset's published schema, plus the whole table as
Parquet, replacing the release folder atomically (a reader never sees half a release)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable, Sequence

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from citeworth_assets.lib import lake


def write_release(
    folder: Path, table: pa.Table, splits: Sequence[str], record: Callable[[dict], dict], parquet_name: str
) -> dict[str, int]:
    """``<split>.jsonl`` for each split (``record`` turns a row of ``table`` into a published record, in table
    order) and ``parquet_name``; returns the records written per split."""
    counts = {}
    with lake.replaced_folder(folder) as staging:
        for split in splits:
            rows = table.filter(pc.equal(table.column("split"), split))
            counts[split] = rows.num_rows
            with open(staging / f"{split}.jsonl", "w", encoding="utf-8") as out:
                for batch in rows.to_batches(max_chunksize=5_000):
                    out.writelines(json.dumps(record(row), ensure_ascii=False) + "\n" for row in batch.to_pylist())
        pq.write_table(table, staging / parquet_name, compression="zstd")
    return counts
