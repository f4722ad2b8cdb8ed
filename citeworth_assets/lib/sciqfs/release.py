"""The ROUGE-SciQFS release: one JSONL and one Parquet file per split, the same rows in both.

A row is an example: its ids, ``sentences``, ``query``, ``labels`` (after the augmentation),
``label_sources`` (``citation``, ``rouge`` or null per sentence, so the citation-only labels can be
recovered) and the final summary's ROUGE scores.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

import orjson
import pyarrow as pa
import pyarrow.parquet as pq

from citeworth_assets.lib.sciqfs.examples import Example

RELEASE_SCHEMA = pa.schema(
    [
        ("example_id", pa.string()),
        ("paper_id", pa.string()),
        ("reference_id", pa.string()),
        ("split", pa.string()),
        ("sentences", pa.list_(pa.string())),
        ("query", pa.string()),
        ("labels", pa.list_(pa.bool_())),
        ("label_sources", pa.list_(pa.string())),
        ("rouge_precision", pa.float64()),
        ("rouge_recall", pa.float64()),
        ("rouge_fmeasure", pa.float64()),
    ]
)


def release_row(example: Example, split: str) -> dict:
    return {
        "example_id": example.example_id,
        "paper_id": example.paper_id,
        "reference_id": example.reference_id,
        "split": split,
        "sentences": example.sentences,
        "query": example.query,
        "labels": example.labels,
        "label_sources": example.label_sources,
        "rouge_precision": example.rouge_precision,
        "rouge_recall": example.rouge_recall,
        "rouge_fmeasure": example.rouge_fmeasure,
    }


def write_release(examples: Iterable[Example], split_of: Mapping[str, str], out: Path, batch_rows: int = 1000) -> dict[str, int]:
    """Write ``<split>.jsonl`` and ``<split>.parquet`` under ``out``, streaming; returns rows per split."""
    out.mkdir(parents=True, exist_ok=True)
    jsonl, parquet, pending, counts = {}, {}, {}, {}

    def flush(split: str) -> None:
        if pending.get(split):
            parquet[split].write_table(pa.Table.from_pylist(pending[split], schema=RELEASE_SCHEMA))
            pending[split] = []

    try:
        for example in examples:
            split = split_of[example.paper_id]
            if split not in jsonl:
                jsonl[split] = (out / f"{split}.jsonl").open("wb")
                parquet[split] = pq.ParquetWriter(out / f"{split}.parquet", RELEASE_SCHEMA)
                pending[split], counts[split] = [], 0
            row = release_row(example, split)
            jsonl[split].write(orjson.dumps(row) + b"\n")
            pending[split].append(row)
            counts[split] += 1
            if len(pending[split]) >= batch_rows:
                flush(split)
        for split in parquet:
            flush(split)
    finally:
        for handle in jsonl.values():
            handle.close()
        for writer in parquet.values():
            writer.close()
    return counts
