"""The steps from parsed papers to the released dataset, shared by the graph and ``citeworth sciqfs``.

Each step is one function both callers use: :func:`build_tables` (§3.2, per partition in the graph, the whole
collection in the command), :func:`partition_examples` (§3.3-3.5: examples and the ROUGE augmentation),
:func:`release_splits` (80/10/10 by citing paper, drawn over every citing paper) and
:func:`release.write_release` (the release folder). The graph keeps tables and examples in the lake between the
steps; the command streams them. :func:`build_dataset` is the command's whole run.

The command's folder holds the release layout plus ``papers.parquet``, ``references.parquet``,
``citations.parquet`` (the clean tables, which the graph keeps in the lake) and ``build.json`` (counts: examples,
skipped pairs by reason, unmatched citing sentences, problems by kind).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import orjson

from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.read_issues import IssueLog
from citeworth_assets.lib.sciqfs.augmentation import AugmentationSettings, augment_examples
from citeworth_assets.lib.sciqfs.examples import Example, ExampleCounts, ExampleSettings, SentenceBounds, build_examples
from citeworth_assets.lib.sciqfs.release import example_row, write_release
from citeworth_assets.lib.sciqfs.splits import SplitSettings, assign_splits
from citeworth_assets.lib.sciqfs.tables import ParsedPaper, SciqfsTables, build_tables
from citeworth_assets.lib.settings import SettingError

pq = lazy_module("pyarrow.parquet")


@dataclass(frozen=True)
class SciqfsSettings:
    examples: ExampleSettings = field(default_factory=ExampleSettings)
    augmentation: AugmentationSettings = field(default_factory=AugmentationSettings)
    splits: SplitSettings = field(default_factory=SplitSettings)
    augment: bool = True  # §3.5 is optional in the paper


def example_settings(settings: SciqfsSettings) -> dict[str, object]:
    """How the labels of a partition's examples were made (kept with the partition, stated by the card)."""
    return {
        "augmentation": settings.augment,
        "rouge_type": settings.augmentation.rouge_type,
        "use_stemmer": settings.augmentation.use_stemmer,
        "citation_grouping": settings.examples.citation_grouping,
        "max_sentences": settings.examples.max_sentences,
    }


def split_settings(splits: SplitSettings) -> dict[str, object]:
    return {"split_fractions": dict(splits.fractions), "split_seed": splits.seed}


def release_version(examples: Mapping[str, object], splits: SplitSettings) -> str:
    return f"sciqfs-{examples.get('rouge_type', 'unknown')}-seed{splits.seed}"


def partition_examples(
    tables: SciqfsTables, split: SentenceBounds, settings: SciqfsSettings, counts: ExampleCounts
) -> Iterator[Example]:
    """The examples of one set of tables (a partition, or a whole collection), augmented when the settings say so."""
    examples = build_examples(tables, split, settings.examples, counts)
    return augment_examples(examples, settings.augmentation) if settings.augment else examples


def release_splits(paper_ids: Iterable[str], settings: SplitSettings) -> dict[str, str]:
    """paper_id -> split over every citing paper of the release."""
    return assign_splits(paper_ids, settings)


def release_settings(partition_settings: list[dict], splits: SplitSettings) -> dict[str, object]:
    """The card's settings: the one set every examples partition was built with, and the split's."""
    if len(partition_settings) > 1:
        raise SettingError(
            f"sciqfs examples partitions were built with different settings {partition_settings}: rebuild "
            "sciqfs_s2orc_examples / sciqfs_arxiv_examples with one configuration before the release"
        )
    return {**(partition_settings[0] if partition_settings else {}), **split_settings(splits)}


def build_dataset(
    papers: Iterable[ParsedPaper],
    out: Path,
    split: SentenceBounds,
    log: IssueLog,
    settings: SciqfsSettings = SciqfsSettings(),
    catalogue_abstracts: Mapping[str, str] | None = None,
) -> dict:
    """Write the dataset under ``out`` as one partition; returns the counts also written to ``build.json``."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    tables = build_tables(papers, log, catalogue_abstracts)
    for name in ("papers", "references", "citations"):
        pq.write_table(getattr(tables, name), out / f"{name}.parquet")
    split_of = release_splits(tables.papers.column("paper_id").to_pylist(), settings.splits)
    counts = ExampleCounts()
    rows = map(example_row, partition_examples(tables, split, settings, counts))
    described = example_settings(settings)
    rows_per_split, _ = write_release(
        rows, split_of, out, release_settings([described], settings.splits), release_version(described, settings.splits)
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
