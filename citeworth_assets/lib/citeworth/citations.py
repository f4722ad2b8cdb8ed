"""Citation spans in paragraph text, as the published CiteWorth code handles them (seeds/001 §3.2).

Mechanics, not decisions: merging adjacent S2ORC spans, assigning merged spans to sentences, cutting
them out of a sentence and deleting the punctuation left hanging, and finding bracketed numeric
citations. The rule units of :mod:`~citeworth_assets.lib.citeworth.rules` judge what these produce.

The published numeric-citation expression ``\\[([0-9]+\\s*[,-;]*\\s*)*[0-9]+\\s*\\]`` backtracks
exponentially on long runs of digits and spaces with no closing bracket. :func:`contains_numeric_citation`
evaluates it as an equivalent finite automaton (tested against the expression), which accepts exactly
the same texts in linear time.
"""

from __future__ import annotations

import re
import string
import warnings
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise

with warnings.catch_warnings():  # string.punctuation holds '[' inside a set; re warns, the meaning is unchanged
    warnings.simplefilter("ignore", FutureWarning)
    STARTS_WITH_PUNCTUATION = re.compile("^\\s*[" + string.punctuation + "]")
HANGING_PUNCTUATION = " @&:;/-,\n\t"

# The characters the published class [,-;] admits besides digits: the range from ',' to ';'.
RANGE_SEPARATORS = frozenset(",-./:;")
IMPROVED_SEPARATORS = frozenset(",;-\u2013")


@dataclass
class CitationSpan:
    """A merged citation span: adjacent S2ORC spans joined (published ``combine_span_indices``)."""

    start: int
    end: int
    text: str
    ref_ids: list
    linked_paper_ids: list


@dataclass(slots=True)
class Sentence:
    """A sentence of a paragraph with the merged citation spans that lie inside it."""

    index: int
    start: int
    end: int
    text: str
    citations: list[CitationSpan]
    crosses_citation: bool  # a span that started before this sentence was not inside any sentence


def token_index(token_starts: list[int], char: int) -> int:
    """The token a character belongs to; whitespace belongs to the token before it."""
    return max(bisect_right(token_starts, char) - 1, 0)


def merge_citation_spans(text: str, cite_spans: list[dict], token_starts: list[int], merge_below_tokens: int = 2) -> list[CitationSpan]:
    """Join each span to the previous one when fewer than ``merge_below_tokens`` tokens lie between them."""
    merged: list[CitationSpan] = []
    for span in cite_spans:
        if merged and token_index(token_starts, span["start"]) - token_index(token_starts, merged[-1].end) < merge_below_tokens:
            last = merged[-1]
            last.end = span["end"]
            last.text = text[last.start : span["end"]]
            last.ref_ids.append(span.get("ref_id"))
            last.linked_paper_ids.append(span.get("linked_paper_id"))
        else:
            merged.append(
                CitationSpan(span["start"], span["end"], span["text"], [span.get("ref_id")], [span.get("linked_paper_id")])
            )
    return merged


def sentences_with_citations(text: str, bounds: list[tuple[int, int]], spans: list[CitationSpan]) -> Iterator[Sentence]:
    """Sentences with the spans wholly inside them, walking both in order as the published loop does.

    A span not wholly inside the sentence where it starts is assigned to none; the next sentence is then
    marked as crossing it.
    """
    j = 0
    for index, (start, end) in enumerate(bounds):
        crosses = j < len(spans) and start > spans[j].start
        own = []
        while j < len(spans) and start <= spans[j].start and spans[j].end <= end:
            own.append(spans[j])
            j += 1
        yield Sentence(index, start, end, text[start:end], own, crosses)


def brackets_only(text: str) -> bool:
    return (text[0] == "[" and text[-1] == "]") or (text[0] == "(" and text[-1] == ")")


def visibly_not_bracketed(span: CitationSpan, paragraph: str) -> bool:
    """A span with visible text that is not bracketed: its sentence is context-only, whatever the boundaries."""
    stripped = span.text.strip()
    return bool(stripped) and bool(paragraph[span.start : span.end].strip()) and not brackets_only(stripped)


def remove_citations(text: str, start: int, end: int, spans: list[CitationSpan], tidy: bool = False) -> str:
    """The sentence ``text[start:end]`` without its citation spans (published ``remove_citations``).

    ``tidy`` also removes what a removed citation leaves empty at each cut (:func:`tidy_cut`).
    """
    spans = sorted(spans, key=lambda span: span.start)
    result = text[start : spans[0].start]
    for piece in [*(text[previous.end : span.start] for previous, span in pairwise(spans)), text[spans[-1].end : end]]:
        if STARTS_WITH_PUNCTUATION.search(piece):
            result = result.rstrip()
        piece = piece.lstrip()
        if tidy:
            result, piece = tidy_cut(result, piece)
        result += piece
    return result


OPENING, CLOSING, SEPARATORS = "([", ")]", ",;:"


def tidy_cut(before: str, after: str) -> tuple[str, str]:
    """The text on both sides of a removed citation without the separator or brackets it leaves empty.

    ``Telescope (DKIST, [49, 56]).`` gives ``Telescope (DKIST,`` | ``).``, tidied to ``Telescope (DKIST`` |
    ``).``; ``Telescope ([49]) is`` gives ``Telescope (`` | ``) is``, tidied to ``Telescope`` | `` is``;
    ``([3]; DKIST)`` gives ``(`` | ``; DKIST)``, tidied to ``(`` | ``DKIST)``.
    """
    if after[:1] in CLOSING and after:
        trimmed = before.rstrip().rstrip(SEPARATORS).rstrip()
        if trimmed.endswith(OPENING[CLOSING.index(after[0])]):  # the brackets held only the citation
            after = after[1:]
            return trimmed[:-1].rstrip(), after if STARTS_WITH_PUNCTUATION.search(after) or not after else " " + after.lstrip()
        return trimmed, after
    if before.rstrip()[-1:] in OPENING and before.strip() and after[:1] in SEPARATORS and after:
        return before.rstrip(), after[1:].lstrip()
    return before, after


GROUP_SEPARATOR = re.compile(r"[\s,;]*")


def first_citation_group(text: str, cite_spans: list[dict]) -> str:
    """The text of a paragraph's first citation group: its first span and the spans that follow it separated
    only by whitespace, ',' or ';' (GROBID splits ``[22, 23]`` into ``[22,`` and ``23]``)."""
    first = last = cite_spans[0]
    for span in cite_spans[1:]:
        if span["start"] < last["end"] or not GROUP_SEPARATOR.fullmatch(text, last["end"], span["start"]):
            break
        last = span
    return first["text"] if last is first else text[first["start"] : last["end"]]


def delete_hanging_punctuation(sentence: str, longer_than: int = 20) -> str:
    """Delete the character before the last while it is hanging punctuation and the sentence is long enough."""
    while len(sentence) > longer_than and sentence[-2] in HANGING_PUNCTUATION:
        sentence = sentence[:-2] + sentence[-1]
    return sentence


def contains_numeric_citation(text: str, separators: frozenset[str]) -> bool:
    """Whether ``\\[([0-9]+\\s*[S]*\\s*)*[0-9]+\\s*\\]`` matches somewhere in ``text`` (S: the separators).

    The inside of the brackets must start with a digit and end with a digit (then optional spaces);
    between digits, separators and spaces mix freely except that a run of spaces may not stand
    between two separators. States: 1 after a digit, 2 after a separator, 3 spaces after a digit,
    4 spaces after a separator.
    """
    start = text.find("[")
    while start >= 0:
        state = 0
        for char in text[start + 1 :]:
            if "0" <= char <= "9":
                state = 1
            elif char == "]" and state in (1, 3):
                return True
            elif char in separators and state in (1, 2, 3):
                state = 2
            elif char.isspace() and state:
                state = 4 if state in (2, 4) else 3
            else:
                break
        start = text.find("[", start + 1)
    return False
