"""Train / validation / test splits grouped by citing paper.

All the examples of a citing paper go to one split: its sentences are the document of every one of
them, so splitting by example (as the published split did) puts the same document in training and
test. Papers are shuffled with a seeded generator after sorting, so a split depends only on the set
of paper ids and the seed, never on input order.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class SplitSettings:
    fractions: tuple[tuple[str, float], ...] = (("train", 0.8), ("validation", 0.1), ("test", 0.1))
    seed: int = 13


def assign_splits(paper_ids: Iterable[str], settings: SplitSettings = SplitSettings()) -> dict[str, str]:
    """paper_id -> split name; split sizes are the rounded cumulative fractions of the papers."""
    papers = sorted(set(paper_ids))
    random.Random(settings.seed).shuffle(papers)
    total = sum(fraction for _, fraction in settings.fractions)
    assignment, start, cumulative = {}, 0, 0.0
    for name, fraction in settings.fractions:
        cumulative += fraction
        end = round(len(papers) * cumulative / total)
        for paper_id in papers[start:end]:
            assignment[paper_id] = name
        start = end
    return assignment
