"""Dataset statistics as the paper's Table 1, per split and overall.

Positive labels are counted before the augmentation (citing sentences) and after it (citing plus
ROUGE-added); the per-split rows add up to the overall row, which the tests check. Statistics are
computed from small per-example summaries, so a dataset written in one streaming pass needs only
these in memory.
"""

from __future__ import annotations

import statistics as stats
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache

from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.sciqfs.examples import Example

pa = lazy_module("pyarrow")


@cache
def statistics_schema() -> pa.Schema:
    return pa.schema(
        [
            ("split", pa.string()),
            ("examples", pa.int64()),
            ("papers", pa.int64()),
            ("sentences", pa.int64()),
            ("sentences_per_example_mean", pa.float64()),
            ("sentences_per_example_std", pa.float64()),
            ("positives_before", pa.int64()),
            ("positives_after", pa.int64()),
            ("positives_per_example_before", pa.float64()),
            ("positives_per_example_after", pa.float64()),
            ("rouge_added", pa.int64()),
        ]
    )


SPLIT_ORDER = ("train", "validation", "test")


@dataclass(frozen=True)
class ExampleSummary:
    paper_id: str
    sentences: int
    positives_before: int
    positives_after: int
    added: int


def summarise_example(example: Example) -> ExampleSummary:
    return ExampleSummary(
        example.paper_id, len(example.sentences), sum(example.citation_labels), sum(example.labels), len(example.added)
    )


def _row(name: str, summaries: list[ExampleSummary]) -> dict:
    lengths = [s.sentences for s in summaries]
    before = sum(s.positives_before for s in summaries)
    after = sum(s.positives_after for s in summaries)
    count = len(summaries)
    return {
        "split": name,
        "examples": count,
        "papers": len({s.paper_id for s in summaries}),
        "sentences": sum(lengths),
        "sentences_per_example_mean": stats.fmean(lengths) if lengths else None,
        "sentences_per_example_std": stats.pstdev(lengths) if lengths else None,
        "positives_before": before,
        "positives_after": after,
        "positives_per_example_before": before / count if count else None,
        "positives_per_example_after": after / count if count else None,
        "rouge_added": sum(s.added for s in summaries),
    }


def statistics_table(summaries: Iterable[ExampleSummary], split_of: Mapping[str, str]) -> pa.Table:
    """One row per split (train, validation, test, then any other) and an ``all`` row."""
    by_split: dict[str, list[ExampleSummary]] = {}
    everything = []
    for summary in summaries:
        by_split.setdefault(split_of[summary.paper_id], []).append(summary)
        everything.append(summary)
    names = [n for n in SPLIT_ORDER if n in by_split] + sorted(set(by_split) - set(SPLIT_ORDER))
    rows = [_row(name, by_split[name]) for name in names] + [_row("all", everything)]
    return pa.Table.from_pylist(rows, schema=statistics_schema())


def dataset_statistics(examples: Iterable[Example], split_of: Mapping[str, str]) -> pa.Table:
    return statistics_table((summarise_example(e) for e in examples), split_of)


def statistics_from_release(table: pa.Table) -> pa.Table:
    """Table 1 from released rows (``paper_id``, ``split``, ``labels``, ``label_sources``), for a dataset card
    written from the release rather than while the examples stream."""
    rows = table.select(["paper_id", "split", "labels", "label_sources"]).to_pylist()
    summaries = [
        ExampleSummary(
            row["paper_id"],
            len(row["labels"]),
            row["label_sources"].count("citation"),
            sum(row["labels"]),
            row["label_sources"].count("rouge"),
        )
        for row in rows
    ]
    return statistics_table(summaries, {row["paper_id"]: row["split"] for row in rows})
