"""One call from parsed papers to the released dataset: tables, examples, augmentation, splits,
release files and statistics (the core of ``citeworth sciqfs --science-parse DIR --out DIR``).

Splits are assigned from the Papers table before any example is built, so examples stream from the
builder through the augmentation into the release writer; only per-example summaries are kept for
the statistics.

Output folder: ``papers.parquet``, ``references.parquet``, ``citations.parquet`` (the clean tables),
``<split>.jsonl`` / ``<split>.parquet`` (the release), ``README.md`` (its dataset card), ``statistics.parquet`` (Table 1) and
``build.json`` (counts: examples, skipped pairs by reason, unmatched citing sentences, problems by kind).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import orjson
import pyarrow.parquet as pq

from citeworth_assets.lib.jsonl import IssueLog
from citeworth_assets.lib.sciqfs.augmentation import (
    AugmentationSettings,
    augment_examples,
)
from citeworth_assets.lib.sciqfs.examples import (
    ExampleCounts,
    ExampleSettings,
    SentenceBounds,
    build_examples,
)
from citeworth_assets.lib.sciqfs.release import write_card, write_release
from citeworth_assets.lib.sciqfs.splits import SplitSettings, assign_splits
from citeworth_assets.lib.sciqfs.statistics import statistics_table, summarise_example
from citeworth_assets.lib.sciqfs.tables import ParsedPaper, build_tables


@dataclass(frozen=True)
class DatasetSettings:
    examples: ExampleSettings = field(default_factory=ExampleSettings)
    augmentation: AugmentationSettings = field(default_factory=AugmentationSettings)
    splits: SplitSettings = field(default_factory=SplitSettings)
    augment: bool = True  # §3.5 is optional in the paper


def card_settings(settings: DatasetSettings) -> dict[str, object]:
    """The settings a reader of the dataset card needs to know how the labels were made."""
    return {
        "augmentation": settings.augment,
        "rouge_type": settings.augmentation.rouge_type,
        "use_stemmer": settings.augmentation.use_stemmer,
        "citation_grouping": settings.examples.citation_grouping,
        "max_sentences": settings.examples.max_sentences,
        "split_fractions": dict(settings.splits.fractions),
        "split_seed": settings.splits.seed,
    }


def build_dataset(
    papers: Iterable[ParsedPaper],
    out: Path,
    split: SentenceBounds,
    log: IssueLog,
    settings: DatasetSettings = DatasetSettings(),
    catalogue_abstracts: Mapping[str, str] | None = None,
) -> dict:
    """Write the dataset under ``out``; returns the counts also written to ``build.json``."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    tables = build_tables(papers, log, catalogue_abstracts)
    for name in ("papers", "references", "citations"):
        pq.write_table(getattr(tables, name), out / f"{name}.parquet")
    split_of = assign_splits(tables.papers.column("paper_id").to_pylist(), settings.splits)
    counts = ExampleCounts()
    examples = build_examples(tables, split, settings.examples, counts)
    if settings.augment:
        examples = augment_examples(examples, settings.augmentation)
    summaries = []

    def summarised(stream):
        for example in stream:
            summaries.append(summarise_example(example))
            yield example

    rows_per_split = write_release(summarised(examples), split_of, out)
    statistics = statistics_table(summaries, split_of)
    pq.write_table(statistics, out / "statistics.parquet")
    write_card(
        out,
        rows_per_split,
        statistics,
        card_settings(settings),
        f"sciqfs-{settings.augmentation.rouge_type}-seed{settings.splits.seed}",
    )
    report = {
        "papers": tables.papers.num_rows,
        "references": tables.references.num_rows,
        "citations": tables.citations.num_rows,
        "examples": counts.examples,
        "rows_per_split": rows_per_split,
        "skipped_pairs": dict(counts.skipped),
        "unmatched_citing_sentences": counts.unmatched_citing_sentences,
        "problems": dict(log.counts),
    }
    (out / "build.json").write_bytes(orjson.dumps(report, option=orjson.OPT_INDENT_2))
    return report
