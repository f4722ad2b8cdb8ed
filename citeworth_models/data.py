"""Read the CiteWorth release Parquet into sentence- or paragraph-level examples.

Models in the paper either see sentences alone (most baselines) or whole
paragraphs (Longformer-Ctx), so both views come from the same file.
"""

from __future__ import annotations

from collections.abc import Iterable

POSITIVE_LABEL = "check-worthy"

Sentence = tuple[str, int]
Paragraph = tuple[list[str], list[int]]


def _rows(path, split: str | None, fields: Iterable[str] | None) -> list[dict]:
    import pyarrow.parquet as pq  # here, not at module level: the registry that imports this module is loaded by
    # every process that loads the definitions, and only a training run reads the data

    table = pq.read_table(path, columns=["paper_id", "section_idx", "field", "split", "samples"])
    wanted_fields = set(fields) if fields is not None else None
    rows = []
    for row in table.to_pylist():
        if split is not None and row["split"] != split:
            continue
        if wanted_fields is not None and row["field"] not in wanted_fields:
            continue
        rows.append(row)
    return rows


def label_to_int(label: str) -> int:
    """1 for cite-worthy (the release calls it "check-worthy"), else 0."""
    return int(label == POSITIVE_LABEL)


def load_paragraphs(path, split: str | None = None, fields: Iterable[str] | None = None) -> list[Paragraph]:
    """Paragraphs in file order as (sentences, labels)."""
    paragraphs = []
    for row in _rows(path, split, fields):
        samples = row["samples"] or []
        if samples:
            paragraphs.append(([s["text"] for s in samples], [label_to_int(s["label"]) for s in samples]))
    return paragraphs


def load_sentences(path, split: str | None = None, fields: Iterable[str] | None = None) -> list[Sentence]:
    """All sentences of the selected paragraphs as (text, label)."""
    return [
        (text, label)
        for sentences, labels in load_paragraphs(path, split, fields)
        for text, label in zip(sentences, labels)
    ]
