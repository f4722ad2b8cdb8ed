"""Dataset statistics as the paper's Table 1, per split and overall.

Positive labels are counted before the augmentation (citing sentences) and after it (citing plus
ROUGE-added); the per-split rows add up to the overall row, which the tests check.
"""

from __future__ import annotations

import statistics as stats
from typing import Iterable, Mapping

import pyarrow as pa

from citeworth_assets.lib.sciqfs.examples import Example

STATISTICS_SCHEMA = pa.schema(
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


def _row(name: str, examples: list[Example]) -> dict:
    lengths = [len(e.sentences) for e in examples]
    before = sum(sum(e.citation_labels) for e in examples)
    after = sum(sum(e.labels) for e in examples)
    count = len(examples)
    return {
        "split": name,
        "examples": count,
        "papers": len({e.paper_id for e in examples}),
        "sentences": sum(lengths),
        "sentences_per_example_mean": stats.fmean(lengths) if lengths else None,
        "sentences_per_example_std": stats.pstdev(lengths) if lengths else None,
        "positives_before": before,
        "positives_after": after,
        "positives_per_example_before": before / count if count else None,
        "positives_per_example_after": after / count if count else None,
        "rouge_added": sum(len(e.added) for e in examples),
    }


def dataset_statistics(examples: Iterable[Example], split_of: Mapping[str, str], order: Iterable[str] = ("train", "validation", "test")) -> pa.Table:
    """One row per split (in ``order``, then any other) and an ``all`` row."""
    by_split: dict[str, list[Example]] = {}
    everything = []
    for example in examples:
        by_split.setdefault(split_of[example.paper_id], []).append(example)
        everything.append(example)
    names = [n for n in order if n in by_split] + sorted(set(by_split) - set(order))
    rows = [_row(name, by_split[name]) for name in names] + [_row("all", everything)]
    return pa.Table.from_pylist(rows, schema=STATISTICS_SCHEMA)
