"""Paragraphs whose drop is certain before sentence splitting, for the ``scispacy_pysbd`` splitter.

Splitting (pysbd) is most of the cleaning time, and most split paragraphs are dropped. Two drops can
be proved from the text alone, because that splitter places a sentence boundary only where the text
has a *boundary site* (:func:`is_boundary_site`):

* pysbd ends a sentence after a terminal mark (``. ! ?``, full-width forms), after a closing bracket or
  quote of a parenthetical or quoted sentence, or at a line break, original or inserted before a list
  item (``a.``, ``(a)``, ``1.``, ``1)``: a period or bracket) or a numbered reference (``.[12] Next``);
* the scispaCy wrapper adds a boundary only after a token of two or more newlines and removes some of
  pysbd's; the splitting improvements (abbreviation joins, trimming, quote-aware splits) only remove
  boundaries or add them at quotes.

Hence :func:`most_sentences` bounds the number of sentences (each site yields at most one boundary, a
period after a digit at most two, see the weights), and :func:`text_follows_citation` finds a citation
followed, in its own sentence whatever the boundaries, by text: the sentence is context-only, which
drops the paragraph (``citation_not_at_sentence_end``). The accepted output is unchanged (tested
against splitting everything); only such a paragraph's recorded reason may differ from the one the
sentence walk would have named first.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from itertools import pairwise

from citeworth_assets.lib.citeworth.citations import CitationSpan, add_span

ASCII_SITES = frozenset(".!?()'\"\n\r")
TERMINALS = frozenset(".!?")
NEXT_TWO_WORDS = re.compile(r"\S*\s+\S+")
CAPITAL_AFTER_SPACE = re.compile(r"\s[A-Z]")
DOUBLE_QUOTES = re.compile('["\u201c\u201d]')


def is_boundary_site(char: str) -> bool:
    """ASCII terminal marks, brackets, quotes and line breaks; any non-ASCII character but letters, digits, spaces."""
    if char.isascii():
        return char in ASCII_SITES
    return unicodedata.category(char)[0] not in "LNZ"


def most_sentences(text: str) -> int:
    """An upper bound of the number of sentences the splitter can find in ``text``.

    A terminal mark ends at most one sentence; a period after a digit may be a numbered-list item, for
    which pysbd inserts up to two line breaks; a bracket or quote may close a parenthetical sentence,
    open a list item and border a parenthetical between quotes (three); a line break, two.
    """
    bound = 1
    for index, char in enumerate(text):
        if char.isascii() and char not in ASCII_SITES:
            continue
        if not is_boundary_site(char):
            continue
        if char in TERMINALS:
            bound += 2 if char == "." and index and text[index - 1].isdigit() else 1
        elif char in "\n\r":
            bound += 2
        else:
            bound += 3
    return bound


def text_follows_citation(text: str, end: int, text_after: re.Pattern) -> bool:
    """Whether the citation ending at ``end`` is followed by text (``text_after`` matches) in its sentence
    whatever the boundaries.

    True when no boundary can fall between the citation and the first match of ``text_after`` (a
    character then spaces) and the next two words: no boundary site there (a list-item line break sits
    before a word whose period or bracket follows within two words) nor the end of a numbered reference
    after a period (``.[12] Next``: the citation itself), and the citation cannot end a parenthetical or
    quoted sentence (its last character is no site, or a closing bracket not followed by a space and a
    capital, in a paragraph without double quotes).
    """
    last = text[end - 1]
    rest = text[end:]
    # A closing bracket ends a parenthetical sentence before a space and a capital, and is followed by a line
    # break inside a parenthetical between double quotes.
    if is_boundary_site(last) and (last != ")" or CAPITAL_AFTER_SPACE.match(rest) or DOUBLE_QUOTES.search(text)):
        return False
    match = text_after.search(rest)
    if match is None or match.end() == len(rest):  # spaces ending the text are in no sentence
        return False
    words = NEXT_TWO_WORDS.match(rest, match.end())
    window = rest[: words.end() if words else len(rest)]
    if any(is_boundary_site(char) for char in window):
        return False
    # pysbd breaks the line after a numbered reference that follows a period (".12 34 Next"), wherever it ends.
    return not any(end <= reference.start(7) < end + len(window) for reference in _numbered_references().finditer(text))


@cache
def _numbered_references() -> re.Pattern:
    from pysbd.lang.english import English

    return re.compile(English.NUMBERED_REFERENCE_REGEX)


def merged_without_tokens(text: str, cite_spans: list[dict], merge_below_tokens: int) -> list[CitationSpan] | None:
    """:func:`~citeworth_assets.lib.citeworth.citations.merge_citation_spans` without the tokens, or None when
    a decision needs them.

    Spans are merged when fewer than ``merge_below_tokens`` tokens apart (token of the next start less token
    of the previous end). With nothing between them that is 0 (the same character); with one space, 1 (a
    single space after a token is no token). Each non-space character after a space in the gap, and the next
    start after a space, starts a token, so they are at least as many tokens apart. Other gaps (``", "``)
    depend on the tokenizer.
    """
    merges = []
    for previous, span in pairwise(cite_spans):
        gap = text[previous["end"] : span["start"]]
        if gap in ("", " "):
            merges.append(len(gap) < merge_below_tokens)
            continue
        region = text[previous["end"] : span["start"] + 1]
        starts = sum(1 for a, b in pairwise(region) if a.isspace() and not b.isspace())
        if starts < merge_below_tokens:
            return None
        merges.append(False)
    merged: list[CitationSpan] = []
    for span, join in zip(cite_spans, [False, *merges]):
        add_span(merged, text, span, join)
    return merged
