"""The ROUGE-SciQFS release, one layout whoever builds it (the graph's ``sciqfs_release``, ``citeworth sciqfs``).

``<split>.jsonl`` and ``<split>.parquet`` (the same rows in both), ``statistics.parquet`` (Table 1 per split and
overall) and ``README.md`` (the dataset card, with the build's settings). A row is an example: its ids, ``split``,
``sentences``, ``query``, ``labels`` (after the augmentation), ``label_sources`` (``citation``, ``rouge`` or null
per sentence, so the citation-only labels can be recovered) and the final summary's ROUGE scores. Examples arrive
as rows without a split (a partition cannot know it: the split is drawn over every citing paper) and are written
as they stream; only a small summary per example is kept, for the statistics.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from itertools import islice
from pathlib import Path

import orjson

from citeworth_assets.lib.dataset_cards import dataset_card
from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.sciqfs.card import CARD
from citeworth_assets.lib.sciqfs.examples import Example
from citeworth_assets.lib.sciqfs.statistics import SPLIT_ORDER, ExampleSummary, statistics_table

pa = lazy_module("pyarrow")
pq = lazy_module("pyarrow.parquet")


@cache
def release_schema() -> pa.Schema:
    return pa.schema(
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


@cache
def example_schema() -> pa.Schema:
    return pa.schema([field for field in release_schema() if field.name != "split"])  # as a partition keeps it


def example_row(example: Example) -> dict:
    """An example as a partition of ``sciqfs_examples`` keeps it (no split yet)."""
    return {
        "example_id": example.example_id,
        "paper_id": example.paper_id,
        "reference_id": example.reference_id,
        "sentences": example.sentences,
        "query": example.query,
        "labels": example.labels,
        "label_sources": example.label_sources,
        "rouge_precision": example.rouge_precision,
        "rouge_recall": example.rouge_recall,
        "rouge_fmeasure": example.rouge_fmeasure,
    }


def _summary(row: dict) -> ExampleSummary:
    sources = row["label_sources"]
    return ExampleSummary(
        row["paper_id"], len(row["labels"]), sources.count("citation"), sum(row["labels"]), sources.count("rouge")
    )


def write_split_files(
    rows: Iterable[dict], split_of: Mapping[str, str], out: Path, batch_rows: int = 100
) -> tuple[dict[str, int], list[ExampleSummary]]:
    """``<split>.jsonl`` and ``<split>.parquet`` under ``out`` from example rows, streaming; rows per split and the
    examples' summaries."""
    out.mkdir(parents=True, exist_ok=True)
    jsonl, parquet, pending, counts, summaries = {}, {}, {}, {}, []

    def flush(split: str) -> None:
        if pending.get(split):
            parquet[split].write_table(pa.Table.from_pylist(pending[split], schema=release_schema()))
            pending[split] = []

    try:
        for example in rows:
            split = split_of[example["paper_id"]]
            if split not in jsonl:
                jsonl[split] = (out / f"{split}.jsonl").open("wb")
                parquet[split] = pq.ParquetWriter(out / f"{split}.parquet", release_schema())
                pending[split], counts[split] = [], 0
            row = {name: example[name] if name != "split" else split for name in release_schema().names}
            jsonl[split].write(orjson.dumps(row) + b"\n")
            pending[split].append(row)
            summaries.append(_summary(row))
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
    return counts, summaries


def write_release(
    rows: Iterable[dict],
    split_of: Mapping[str, str],
    out: Path,
    settings: Mapping[str, object],
    version: str,
    s2ag: Sequence[str] = (),
) -> tuple[dict[str, int], pa.Table]:
    """The whole release under ``out`` (a staging folder the caller publishes): split files, ``statistics.parquet``
    and the card (naming the ``s2ag`` releases it was built from); returns rows per split and Table 1."""
    counts, summaries = write_split_files(rows, split_of, out)
    statistics = statistics_table(summaries, split_of)
    pq.write_table(statistics, out / "statistics.parquet")
    write_card(out, counts, statistics, settings, version, s2ag)
    return counts, statistics


def release_documents(folder: Path, split: str) -> list:
    """The model-side documents of one released split (``all``: every split), empty when it has none."""
    from citeworth_models.sciqfs.documents import documents

    names = SPLIT_ORDER if split == "all" else (split,)
    paths = [folder / f"{name}.parquet" for name in names if (folder / f"{name}.parquet").exists()]
    columns = ["example_id", "sentences", "query", "labels"]
    return [doc for path in paths for doc in documents(pq.read_table(path, columns=columns).to_pylist())]


def write_card(
    out: Path,
    counts: Mapping[str, int],
    statistics: pa.Table,
    settings: Mapping[str, object],
    version: str,
    s2ag: Sequence[str] = (),
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
        dataset_card(
            spec, "ROUGE-SciQFS", version, counts, samples, statistics, sizes=sizes, schema=release_schema(), s2ag=s2ag
        ),
        encoding="utf-8",
    )
    return card
