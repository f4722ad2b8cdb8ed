"""The model-side view of an example: a document's sentences, the query and the labels."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Document:
    example_id: str
    sentences: list[str]
    query: str
    labels: list[bool]


def documents(rows: Iterable) -> list[Document]:
    """From release rows (dicts) or library examples (objects with the same names)."""
    found = []
    for row in rows:
        fields = (
            row
            if isinstance(row, dict)
            else {name: getattr(row, name) for name in ("example_id", "sentences", "query", "labels")}
        )
        found.append(
            Document(
                str(fields["example_id"]),
                list(fields["sentences"]),
                fields["query"],
                [bool(x) for x in fields["labels"]],
            )
        )
    return found
