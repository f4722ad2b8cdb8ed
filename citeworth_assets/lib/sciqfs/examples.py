"""Examples per (citing paper, reference) with a relevance label per sentence (§3.3-3.4).

The document is the citing paper's text split into sentences, the query is the reference's abstract,
and a sentence is relevant when it is one of the sentences that cite the reference.

The published code concatenated a pair's citation contexts without a separator before splitting them
into sentences, which glues the last sentence of one context to the first of the next, so that glued
sentence matches nothing in the paper. Here every context is split on its own and each of its
sentences is matched on its own. Sentences are compared with whitespace collapsed (parsers differ in
line breaks, not in words).

A pair is skipped, and tallied by reason (:data:`PAIR_CRITERIA`, the reasons registered in
:mod:`~citeworth_assets.lib.sciqfs.reasons`), when the reference has no abstract (no query), when the paper
is longer than ``max_sentences`` (a setting; off by default, since the augmentation is linear in the
sentences), or when no citing sentence is found in the paper's sentences (no positive).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property

from citeworth_assets.lib.filters import Tally, criterion, first_failure
from citeworth_assets.lib.sciqfs.reasons import REASONS
from citeworth_assets.lib.sciqfs.tables import SECTION_SEPARATOR, SciqfsTables
from citeworth_assets.lib.settings import SettingError

SentenceBounds = Callable[[str], list[tuple[int, int]]]


@dataclass(frozen=True)
class ExampleSettings:
    max_sentences: int | None = None  # None: no paper is too long
    section_separator: str = SECTION_SEPARATOR
    # "per_context": each context split and matched on its own; "published": the published code's
    # grouping (contexts concatenated without a separator, then split), kept to reproduce its labels.
    citation_grouping: str = "per_context"


@dataclass
class Example:
    """One query-focused summarization example; ``added`` and the scores come from the augmentation."""

    paper_id: str
    reference_id: str
    sentences: list[str]
    query: str
    citation_labels: list[bool]
    added: list[int] = field(default_factory=list)  # sentence indices the ROUGE search added, in order
    rouge_precision: float | None = None
    rouge_recall: float | None = None
    rouge_fmeasure: float | None = None

    @property
    def example_id(self) -> str:
        return f"{self.paper_id}::{self.reference_id}"

    @property
    def labels(self) -> list[bool]:
        labels = list(self.citation_labels)
        for index in self.added:
            labels[index] = True
        return labels

    @property
    def label_sources(self) -> list[str | None]:
        sources: list[str | None] = ["citation" if label else None for label in self.citation_labels]
        for index in self.added:
            sources[index] = "rouge"
        return sources


@dataclass
class ExampleCounts:
    pairs: Tally = field(default_factory=lambda: Tally(REASONS))  # kept: examples; dropped: skipped pairs by reason
    unmatched_citing_sentences: int = 0  # citing sentences not found among the paper's sentences

    @property
    def examples(self) -> int:
        return self.pairs.kept

    @property
    def skipped(self) -> Counter:
        return self.pairs.dropped


def sentence_key(sentence: str) -> str:
    return " ".join(sentence.split())


def split_sentences(text: str, split: SentenceBounds, separator: str = SECTION_SEPARATOR) -> list[str]:
    """The non-empty sentences of ``text``, section by section."""
    sentences = []
    for block in text.split(separator) if separator else [text]:
        for start, end in split(block):
            sentence = block[start:end].strip()
            if sentence:
                sentences.append(sentence)
    return sentences


def citing_sentences(contexts: list[str], split: SentenceBounds, grouping: str = "per_context") -> list[str]:
    """Every sentence of every context, each context split on its own (or, with ``grouping="published"``,
    the sentences of the contexts glued together as the published code did)."""
    if grouping == "published":
        return split_sentences("".join(contexts), split, separator="")
    if grouping != "per_context":
        raise SettingError(f"sciqfs citation_grouping {grouping!r}: use 'per_context' or 'published'")
    found = []
    for context in contexts:
        found.extend(split_sentences(context, split, separator=""))
    return found


def label_sentences(sentences: list[str], citing: list[str]) -> tuple[list[bool], int]:
    """A label per sentence (true when it is a citing sentence) and the number of unmatched citing sentences."""
    wanted = {sentence_key(s) for s in citing}
    labels = [sentence_key(s) in wanted for s in sentences]
    present = {sentence_key(s) for s, label in zip(sentences, labels) if label}
    return labels, len(wanted - present)


@dataclass
class Pair:
    """A (citing paper, reference) pair, what the pair criteria judge; its labels are made only when asked for."""

    sentences: list[str]  # the citing paper's
    query: str | None  # the reference's abstract
    contexts: list[str]  # the paper's citation contexts of the reference
    split: SentenceBounds
    settings: ExampleSettings
    counts: ExampleCounts

    @cached_property
    def labels(self) -> list[bool]:
        labels, unmatched = label_sentences(
            self.sentences, citing_sentences(self.contexts, self.split, self.settings.citation_grouping)
        )
        self.counts.unmatched_citing_sentences += unmatched
        return labels


@criterion(REASONS, "reference_without_abstract")
def has_query(pair: Pair) -> bool:
    return bool(pair.query)


@criterion(REASONS, "paper_too_long")
def short_enough(pair: Pair) -> bool:
    return pair.settings.max_sentences is None or len(pair.sentences) <= pair.settings.max_sentences


@criterion(REASONS, "no_citing_sentence_found")
def has_citing_sentence(pair: Pair) -> bool:
    return any(pair.labels)


PAIR_CRITERIA = (has_query, short_enough, has_citing_sentence)


def build_examples(
    tables: SciqfsTables,
    split: SentenceBounds,
    settings: ExampleSettings = ExampleSettings(),
    counts: ExampleCounts | None = None,
) -> Iterator[Example]:
    """Examples in (paper, reference) order of first citation; each paper is split once."""
    counts = counts if counts is not None else ExampleCounts()
    texts = dict(zip(tables.papers.column("paper_id").to_pylist(), tables.papers.column("text").to_pylist()))
    queries = dict(
        zip(tables.references.column("reference_id").to_pylist(), tables.references.column("abstract").to_pylist())
    )
    contexts: dict[str, dict[str, list[str]]] = {}
    citations = tables.citations.select(["paper_id", "reference_id", "context"]).to_pylist()
    for row in citations:
        contexts.setdefault(row["paper_id"], {}).setdefault(row["reference_id"], []).append(row["context"])
    for paper_id, by_reference in contexts.items():
        sentences = split_sentences(texts.get(paper_id) or "", split, settings.section_separator)
        for reference, paper_contexts in by_reference.items():
            pair = Pair(sentences, queries.get(reference), paper_contexts, split, settings, counts)
            if reason := first_failure(PAIR_CRITERIA, pair):
                counts.pairs.drop(reason)
                continue
            counts.pairs.keep()
            yield Example(paper_id, reference, sentences, pair.query, pair.labels)


def default_splitter() -> SentenceBounds:
    """The platform's SciSpacy/pysbd splitter (CiteWorth §3.2), loaded once per process."""
    from citeworth_assets.lib.sentences import splitter

    return splitter().split


__all__ = ["Example", "ExampleCounts", "ExampleSettings", "build_examples", "default_splitter"]
