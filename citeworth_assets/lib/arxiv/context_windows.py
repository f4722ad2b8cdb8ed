"""Citation contexts (Saier 2019 §4.2.5): a window around each resolved citation marker.

The rule set ``unarxive_2020`` reproduces the context extraction published with unarXive
(``code/extract_contexts.py`` of the data set, the version that writes the seven-field CSV); its
decisions, taken from its source as facts:

* a marker is ``{{cite:UUID}}`` with a version-4 UUID (case-insensitive); other markers are left as
  they are in the text;
* sentence windows: the whole text is re-tokenised as ``f"{pre} MAINCIT {post}"`` with NLTK Punkt and
  the abbreviations al, fig, e.g, i.e, eq, cf, ref, refs; the citing sentence is the first one holding
  ``MAINCIT``; ``before`` sentences before it and ``after`` after it are joined by single spaces;
* word windows count words of ``[^\\s<punctuation>]+`` outwards, skipping 45-character markers, and
  give ``f"{pre} MAINCIT {post}"`` (a window of 0 words before keeps the whole text before: the
  published ``pre[-0:]``);
* then every other marker becomes `` CIT `` and runs of whitespace (``\\s``, Unicode) one space; the text
  is not stripped;
* adjacent citations: looking back from the marker's start (and forward from its end) at the last
  (first) 50 characters, a candidate marker found there is adjacent and the search goes on from it;
  it stops at the first non-candidate marker or gap. With 45-character markers this is the thesis'
  "at most 5 characters apart". Ids are listed nearest first, before-markers then after-markers.

Tokeniser: by default the published one, NLTK's trained English Punkt plus those abbreviations with nltk
3.4.5's candidate breaks (:mod:`citeworth_assets.lib.arxiv.punkt`, parameters shipped with the package); the
preset ``untrained`` (Punkt knowing only the eight abbreviations) is kept beside it.

Tokenising the whole paper once per marker (as published) is quadratic; here the paper is tokenised
once and each marker re-tokenised within a window of whole sentences around it, which gives the same
sentences because Punkt decides each break from the tokens beside it. Checked: the exports for the real
unarXive 2020 sample hash the same as the published script's full re-tokenisation (every marker of the
sample), and tests/lib/arxiv/test_contexts.py compares both ways marker by marker on real papers.

Bounded splitting: NLTK runs Punkt's regular expressions under a time guard, which fails on a single text
of tens of megabytes (one 50 MB line). A text longer than ``MAX_SPLIT_CHARS`` (far above any real paper, so
published results are untouched) is cut into blocks first, at blank lines, else line ends, else spaces,
and each block is split on its own; a sentence never crosses a block, and the caller counts such texts.

``unarxive_2022`` applies the same window rules to unarXive 2022's 40-hex markers (49 characters, gap 5) and
replaces whole markers, so the stray ``}`` that the 2022 preparation code leaves in some contexts cannot
occur; its ``{{formula:<uuid>}}`` (figure, table, ref) placeholders become unarXive 2020's FORMULA, FIGURE,
TABLE, REF first, and adjacent citations are the whole group's (:func:`group_adjacent_ids`, reading order).
"""

from __future__ import annotations

import re
import string
from bisect import bisect_right
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:  # NLTK is imported where a tokenizer is built: importing this module loads no NLP library
    from nltk.tokenize.punkt import PunktSentenceTokenizer

DEFAULT_TOKENIZER = "unarxive_published"  # lib/arxiv/punkt.py's presets
RE_WHITESPACE = re.compile(r"[\s]+")
RE_PUNCT = re.compile(f"[{re.escape(string.punctuation)}]")
RE_WORD = re.compile(rf"[^\s{re.escape(string.punctuation)}]+")
MAINCIT, CIT = "MAINCIT", "CIT"


@dataclass(frozen=True)
class ContextRules:
    """How markers look and how far apart adjacent ones may be."""

    name: str
    cite_pattern: re.Pattern
    marker_length: int  # every marker of the release has this length
    gap: int = 5  # characters allowed between adjacent markers
    whole_groups: bool = False  # adjacency over the whole citation group in reading order, not the published search
    placeholders: bool = False  # {{formula:<uuid>}} etc. -> FORMULA, FIGURE, TABLE, REF (unarXive 2020's tokens)

    @property
    def perimeter(self) -> int:
        return self.marker_length + self.gap


UNARXIVE_2020 = ContextRules(
    "unarxive_2020",
    re.compile(r"\{\{cite:([0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12})\}\}", re.IGNORECASE),
    marker_length=45,
)
UNARXIVE_2022 = ContextRules(
    "unarxive_2022",
    re.compile(r"\{\{cite:([0-9a-f]{40})\}\}"),
    marker_length=49,
    whole_groups=True,
    placeholders=True,
)
PLACEHOLDER = re.compile(r"\{\{(formula|figure|table|ref):[^{}\s]*\}\}")


def replace_placeholders(text: str) -> str:
    """unarXive 2022's ``{{formula:<uuid>}}`` (figure, table, ref) -> the token unarXive 2020 writes (FORMULA, ...)."""
    return PLACEHOLDER.sub(lambda match: match.group(1).upper(), text)


@dataclass(frozen=True)
class ContextWindow:
    """The window: ``before``/``after`` sentences beside the citing sentence, or words on each side; sentences are
    split by the ``tokenizer`` preset (lib/arxiv/punkt.py)."""

    unit: Literal["sentences", "words"] = "sentences"
    before: int = 0
    after: int = 0
    tokenizer: str = DEFAULT_TOKENIZER


# The published script's command-line defaults (-u s -e 1 -o 1): the citing sentence and one on each side,
# the <sentence><citing_sentence><sentence> of unarXive's README_contexts.md and Listing 4.2's example.
PUBLISHED_SETTINGS = ContextWindow("sentences", 1, 1)
# Named presets: ``unarxive_published`` is how unarXive's published citation_contexts.csv was made (the citing
# sentence alone, NLTK's trained English Punkt as nltk 3.4.5 splits); ``unarxive_script`` the script's defaults.
PRESETS = {
    "unarxive_published": ContextWindow("sentences", 0, 0, "unarxive_published"),
    "unarxive_script": PUBLISHED_SETTINGS,
}


def punkt_tokenizer(name: str = DEFAULT_TOKENIZER) -> PunktSentenceTokenizer:
    """The sentence splitter preset ``name`` (default: the published one, NLTK's trained English Punkt as 3.4.5)."""
    from citeworth_assets.lib.arxiv.punkt import sentence_tokenizer

    return sentence_tokenizer(name)


def clean_context(text: str, rules: ContextRules) -> str:
    """Other markers -> `` CIT ``, whitespace runs -> one space (nothing stripped), as published."""
    return RE_WHITESPACE.sub(" ", rules.cite_pattern.sub(f" {CIT} ", text))


def adjacent_ids(text: str, start: int, end: int, rules: ContextRules, candidates: dict) -> list:
    """Ids of the candidate markers adjacent to the marker at ``[start, end)``, nearest first."""
    found = []
    position = start  # backwards: the text before ``position`` is searched
    while True:
        window_start = max(0, position - rules.perimeter)
        match = rules.cite_pattern.search(text, window_start, position)
        if not match or match.group(1) not in candidates:
            break
        found.append(candidates[match.group(1)])
        # published: adfix[:-(50 - margin)], which cuts short of the match when the text before is short
        position = max(0, position - rules.perimeter + (match.start() - window_start))
    position = end
    while True:
        match = rules.cite_pattern.search(text, position, min(len(text), position + rules.perimeter))
        if not match or match.group(1) not in candidates:
            break
        found.append(candidates[match.group(1)])
        position = position + rules.marker_length + (match.start() - position)
    return found


def group_adjacent_ids(text: str, start: int, end: int, rules: ContextRules, candidates: dict) -> list:
    """Ids of the candidate markers in the citation group of the marker at ``[start, end)``, in reading order.

    A group is a run of markers at most ``rules.gap`` characters apart (§4.2.5); a marker that is no candidate
    (an unlinked citation) stays in the group without ending it, and the marker's own reference is not listed."""
    markers = list(rules.cite_pattern.finditer(text))
    here = next((i for i, m in enumerate(markers) if m.start() == start), None)
    if here is None:
        return []
    first = last = here
    while first > 0 and markers[first].start() - markers[first - 1].end() <= rules.gap:
        first -= 1
    while last + 1 < len(markers) and markers[last + 1].start() - markers[last].end() <= rules.gap:
        last += 1
    own = markers[here].group(1)
    ids = dict.fromkeys(m.group(1) for m in markers[first : last + 1] if m.group(1) != own and m.group(1) in candidates)
    return [candidates[ref] for ref in ids]


def _separator_step(char: str, marker: bool | None, rules: ContextRules) -> int:
    """Characters that a brace (a whole marker when ``marker``), punctuation or white space takes; 0 for a word."""
    if marker is not None:
        return rules.marker_length if marker else 1
    return 1 if RE_PUNCT.match(char) or RE_WHITESPACE.match(char) else 0


def _words_back(text: str, end: int, words: int, rules: ContextRules) -> int:
    """Characters to go back from ``end`` to take in ``words`` words, markers not counted (published rule)."""
    counted = distance = 0
    while counted < words:
        position = end - distance
        if position <= 0:
            break
        char, marker = text[position - 1], None
        if char == "}":
            back = position - rules.marker_length
            marker = back >= 0 and rules.cite_pattern.match(text, back, position) is not None
        step = _separator_step(char, marker, rules)
        if step:
            distance += step
        else:
            length = 0
            while position - 1 - length >= 0 and RE_WORD.match(text[position - 1 - length]):
                length += 1
            distance += length
            counted += 1
    return distance


def _words_forward(text: str, start: int, words: int, rules: ContextRules) -> int:
    counted = distance = 0
    while counted < words:
        position = start + distance
        if position >= len(text):
            break
        char, marker = text[position], None
        if char == "{":
            end = min(len(text), position + rules.marker_length)
            marker = rules.cite_pattern.match(text, position, end) is not None
        step = _separator_step(char, marker, rules)
        if step:
            distance += step
        else:
            distance += max(RE_WORD.match(text, position).end() - position, 1)
            counted += 1
    return distance


def word_window(text: str, start: int, end: int, settings: ContextWindow, rules: ContextRules) -> str:
    back = _words_back(text, start, settings.before, rules)
    forward = _words_forward(text, end, settings.after, rules)
    pre = text[start - back : start] if back else text[:start]  # published pre[-0:] is the whole prefix
    return f"{pre} {MAINCIT} {text[end : end + forward]}"


def _select(sentences, before: int, after: int) -> str:
    """The published choice: first sentence with MAINCIT, ``before`` ones before it, ``after`` ones after."""
    pre, citing, post = [], None, []
    for sentence in sentences:
        if citing is None and MAINCIT in sentence:
            citing = sentence
            continue
        if citing is None:
            pre.append(sentence)
        else:
            post.append(sentence)
            if len(post) >= after:
                break
    chosen = (pre[-before:] if before > 0 else []) + [citing] + (post[:after] if after >= 0 else [])
    return " ".join(chosen)


MAX_SPLIT_CHARS = 1_000_000  # Punkt takes about 0.8 s per million characters here; its time guard trips at 5 s


def split_blocks(text: str, limit: int | None = None) -> list[tuple[int, int]]:
    """``[start, end)`` blocks covering ``text``, each at most ``limit`` characters, cut at the last blank line,
    else line end, else space before the limit (a hard cut when there is none)."""
    limit = limit or MAX_SPLIT_CHARS
    blocks, start = [], 0
    while len(text) - start > limit:
        end = start + limit
        for separator in ("\n\n", "\n", " "):
            cut = text.rfind(separator, start + 1, end)
            if cut > start:
                end = cut + len(separator)
                break
        blocks.append((start, end))
        start = end
    return [*blocks, (start, len(text))]


class SentenceWindows:
    """Sentence windows of one text; the text is tokenised once (per block), markers re-tokenised locally."""

    MARGIN = 2  # extra whole sentences on each side of the window, beyond those asked for

    def __init__(self, text: str, tokenizer: PunktSentenceTokenizer, exact: bool = False):
        self.text, self.tokenizer, self.exact = text, tokenizer, exact
        self.blocks = split_blocks(text)
        self.block_starts = [s for s, _ in self.blocks]
        self.spans = (
            [] if exact else [(s + a, s + b) for s, e in self.blocks for a, b in tokenizer.span_tokenize(text[s:e])]
        )
        self.starts = [s for s, _ in self.spans]
        # a literal MAINCIT before a marker would be taken for the citing sentence: use the full re-tokenisation
        self.first_literal = text.find(MAINCIT)

    def window(self, start: int, end: int, before: int, after: int) -> str:
        text = self.text
        if self.exact or not self.spans or (0 <= self.first_literal < start):
            low, high = self.blocks[bisect_right(self.block_starts, start) - 1]
            sentences = self.tokenizer.tokenize(f"{text[low:start]} {MAINCIT} {text[end : max(end, high)]}")
            return _select(sentences, before, after)
        first = max(0, bisect_right(self.starts, start) - 1 - before - self.MARGIN)
        last = bisect_right(self.starts, max(start, end - 1)) - 1 + after + self.MARGIN
        low, high = self.blocks[bisect_right(self.block_starts, start) - 1]
        left = max(low, 0 if first == 0 else self.spans[first][0])
        right = max(end, min(high, len(text) if last >= len(self.spans) - 1 else self.spans[last][1]))
        piece = f"{text[left:start]} {MAINCIT} {text[end:right]}"
        return _select(self.tokenizer.tokenize(piece), before, after)


def marker_context(
    text: str,
    start: int,
    end: int,
    settings: ContextWindow,
    rules: ContextRules,
    windows: SentenceWindows | None = None,
    tokenizer: PunktSentenceTokenizer | None = None,
) -> str:
    """The cleaned context of the marker at ``[start, end)`` of ``text``."""
    if settings.unit == "words":
        raw = word_window(text, start, end, settings, rules)
    else:
        windows = windows or SentenceWindows(text, tokenizer or punkt_tokenizer(settings.tokenizer))
        raw = windows.window(start, end, settings.before, settings.after)
    return clean_context(raw, rules)
