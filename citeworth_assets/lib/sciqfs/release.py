"""The ROUGE-SciQFS release: one JSONL and one Parquet file per split, the same rows in both.

A row is an example: its ids, ``sentences``, ``query``, ``labels`` (after the augmentation),
``label_sources`` (``citation``, ``rouge`` or null per sentence, so the citation-only labels can be
recovered) and the final summary's ROUGE scores. ``write_card`` adds the folder's README.md dataset card (the
convention of every release, :mod:`citeworth_assets.lib.dataset_cards`), with the build's settings.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from itertools import islice
from pathlib import Path

import orjson
import pyarrow as pa
import pyarrow.parquet as pq

from citeworth_assets.lib.dataset_cards import dataset_card
from citeworth_assets.lib.sciqfs.card import CARD
from citeworth_assets.lib.sciqfs.examples import Example
from citeworth_assets.lib.sciqfs.statistics import SPLIT_ORDER

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


def write_release(
    examples: Iterable[Example], split_of: Mapping[str, str], out: Path, batch_rows: int = 1000
) -> dict[str, int]:
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


def write_card(
    out: Path, counts: Mapping[str, int], statistics: pa.Table, settings: Mapping[str, object], version: str
) -> Path:
    """``README.md`` under ``out`` for the release ``write_release`` wrote there: splits and features from its files
    and schema, Table 1 from ``statistics``, and ``settings`` (name -> value) listed under how it was made."""
    rows = statistics.to_pylist()
    counts = {
        split: counts[split]
        for split in sorted(
            counts, key=lambda s: (s not in SPLIT_ORDER, SPLIT_ORDER.index(s) if s in SPLIT_ORDER else 0, s)
        )
    }
    listed = "\n".join(f"- `{name}`: `{value}`" for name, value in settings.items())
    spec = dataclasses.replace(
        CARD,
        statistics=lambda _table: rows,
        construction=f"{CARD.construction}\n\nSettings of this build:\n\n{listed}",
    )
    samples = {}
    for split in counts:
        with (out / f"{split}.jsonl").open("rb") as lines:
            samples[split] = [orjson.loads(line) for line in islice(lines, 100)]
    sizes = {split: (out / f"{split}.jsonl").stat().st_size for split in counts}
    card = out / "README.md"
    card.write_text(
        dataset_card(spec, "ROUGE-SciQFS", version, counts, samples, statistics, sizes=sizes, schema=RELEASE_SCHEMA),
        encoding="utf-8",
    )
    return card
