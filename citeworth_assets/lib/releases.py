"""Dataset releases: one JSON-lines file per split in a dataset's published schema, plus the whole table as
Parquet, replacing the release folder atomically (a reader never sees half a release)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from citeworth_assets.lib import lake
from citeworth_assets.lib.lazy import lazy_module

pa = lazy_module("pyarrow")
pc = lazy_module("pyarrow.compute")
pq = lazy_module("pyarrow.parquet")

if TYPE_CHECKING:
    from citeworth_assets.lib.dataset_cards import CardSpec

CARD_SAMPLE = 2_000  # records per split whose types give the dataset card's features


def write_release(
    folder: Path,
    table: pa.Table,
    splits: Sequence[str],
    record: Callable[[dict], dict],
    parquet_name: str,
    card: CardSpec | None = None,
    s2ag: Sequence[str] = (),
) -> dict[str, int]:
    """``<split>.jsonl`` for each split (``record`` turns a row of ``table`` into a published record, in table
    order), ``parquet_name``, and, given the domain's ``card``, a ``README.md`` dataset card with its figures (naming
    the ``s2ag`` releases it was built from);
    returns the records written per split."""
    from citeworth_assets.lib.dataset_cards import dataset_card

    counts, samples = {}, {}
    with lake.replaced_folder(folder) as staging:
        for split in splits:
            rows = table.filter(pc.equal(table.column("split"), split))
            counts[split] = rows.num_rows
            with open(staging / f"{split}.jsonl", "w", encoding="utf-8") as out:
                for batch in rows.to_batches(max_chunksize=5_000):
                    records = [record(row) for row in batch.to_pylist()]
                    if len(samples.setdefault(split, [])) < CARD_SAMPLE:
                        samples[split] += records[: CARD_SAMPLE - len(samples[split])]
                    out.writelines(json.dumps(published, ensure_ascii=False) + "\n" for published in records)
        pq.write_table(table, staging / parquet_name, compression="zstd")
        if card is not None:
            figures = card.figures(table) if card.figures and table.num_rows else {}
            for name, png in figures.items():
                (staging / f"{name}.png").write_bytes(png)
            sizes = {split: (staging / f"{split}.jsonl").stat().st_size for split in splits}
            text = dataset_card(
                card, Path(parquet_name).stem, folder.name, counts, samples, table, list(figures), sizes, s2ag=s2ag
            )
            (staging / "README.md").write_text(text, encoding="utf-8")
    return counts
