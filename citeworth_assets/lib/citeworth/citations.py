"""Citation spans in paragraph text, as the published CiteWorth code handles them (CiteWorth §3.2).

Mechanics, not decisions: merging adjacent S2ORC spans, assigning merged spans to sentences, cutting
them out of a sentence and deleting the punctuation left hanging, and finding bracketed numeric
citations. The rule units of :mod:`~citeworth_assets.lib.citeworth.rule_units` judge what these produce.

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


def merge_citation_spans(
    text: str, cite_spans: list[dict], token_starts: list[int], merge_below_tokens: int = 2
) -> list[CitationSpan]:
    """Join each span to the previous one when fewer than ``merge_below_tokens`` tokens lie between them."""
    merged: list[CitationSpan] = []
    for span in cite_spans:
        join = (
            bool(merged)
            and token_index(token_starts, span["start"]) - token_index(token_starts, merged[-1].end)
            < merge_below_tokens
        )
        add_span(merged, text, span, join)
    return merged


def add_span(merged: list[CitationSpan], text: str, span: dict, join: bool) -> None:
    """Add a cite span to the merged spans: joined to the last one (its text runs on to the span's end), or as a new
    one."""
    if join:
        last = merged[-1]
        last.end = span["end"]
        last.text = text[last.start : span["end"]]
        last.ref_ids.append(span.get("ref_id"))
        last.linked_paper_ids.append(span.get("linked_paper_id"))
    else:
        merged.append(
            CitationSpan(span["start"], span["end"], span["text"], [span.get("ref_id")], [span.get("linked_paper_id")])
        )


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

    ``tidy`` also removes what a removed citation leaves empty at each cut (:func:`tidy_cut`) and the
    parentheticals it leaves holding only pointer words (:func:`drop_pointer_parentheticals`).
    """
    spans = sorted(spans, key=lambda span: span.start)
    result = text[start : spans[0].start]
    cuts: list[int] = []  # where each citation was, in ``result``; it is only ever cut back, then extended
    for piece in [*(text[previous.end : span.start] for previous, span in pairwise(spans)), text[spans[-1].end : end]]:
        if STARTS_WITH_PUNCTUATION.search(piece):
            result = result.rstrip()
        piece = piece.lstrip()
        if tidy:
            result, piece = tidy_cut(result, piece)
            cuts = [min(cut, len(result)) for cut in cuts] + [len(result)]
        result += piece
    return drop_pointer_parentheticals(result, cuts) if tidy else result


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
            return trimmed[:-1].rstrip(), after if STARTS_WITH_PUNCTUATION.search(
                after
            ) or not after else " " + after.lstrip()
        return trimmed, after
    if before.rstrip()[-1:] in OPENING and before.strip() and after[:1] in SEPARATORS and after:
        return before.rstrip(), after[1:].lstrip()
    return before, after


# What may be left of a parenthetical once its citations are removed for it to go whole: the pointing or
# example words that introduced them ("(e.g. see [5])", "(see also [7])", "([3], among others)"), joined by
# "and" / "or", commas, semicolons and spaces. Nothing the author wrote besides the pointer.
POINTER_WORDS = r"see(?:\s+also)?|cf|e\.?\s?g|for example|for instance|among others|and|or"
POINTER_ONLY = re.compile(rf"(?:[\s,;]|(?:{POINTER_WORDS})(?![a-z])\.?)*", re.IGNORECASE)


def drop_pointer_parentheticals(sentence: str, cuts: list[int]) -> str:
    """``sentence`` without the parentheticals that held a removed citation (one at an offset in ``cuts``) and
    now hold only pointer words (:data:`POINTER_ONLY`), with the space before them, and a comma before them
    when a mark follows: ``training, (e.g. [4]).`` gives ``training.``, not ``training, (e.g.).``.

    A parenthetical that held no citation is the author's and stays.
    """
    cuts = sorted(set(cuts), reverse=True)
    while cuts:
        brackets = enclosing_brackets(sentence, cuts.pop(0))
        if brackets is None or not POINTER_ONLY.fullmatch(sentence, brackets[0] + 1, brackets[1]):
            continue
        before, after = sentence[: brackets[0]].rstrip(), sentence[brackets[1] + 1 :]
        if before.endswith(",") and after[:1] in ".?!,;:)]":
            before = before[:-1].rstrip()
        joint = " " if before and after and not STARTS_WITH_PUNCTUATION.search(after) else ""
        sentence = before + joint + after.lstrip()
        cuts = [cut for cut in cuts if cut <= len(before)]  # the others were in what went
    return sentence


def enclosing_brackets(text: str, at: int) -> tuple[int, int] | None:
    """The offsets of the innermost matching ``()`` or ``[]`` pair around offset ``at``, if any."""
    depth = 0
    for opening in range(at - 1, -1, -1):
        if text[opening] in CLOSING:
            depth += 1
        elif text[opening] in OPENING:
            if not depth:
                break
            depth -= 1
    else:
        return None
    depth = 0
    for closing in range(at, len(text)):
        if text[closing] in OPENING:
            depth += 1
        elif text[closing] in CLOSING:
            if not depth:
                return (opening, closing) if OPENING.index(text[opening]) == CLOSING.index(text[closing]) else None
            depth -= 1
    return None


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
