"""The model-side view of an example: a document's sentences, the query and the labels."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable


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
        get = row.get if isinstance(row, dict) else lambda name: getattr(row, name)
        found.append(Document(str(get("example_id")), list(get("sentences")), get("query"), [bool(x) for x in get("labels")]))
    return found
