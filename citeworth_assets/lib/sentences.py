"""Sentence splitting with SciSpacy, as the CiteWorth paper does (CiteWorth §3.2).

Two splitters, chosen by name (setting ``CITEWORTH_SPLITTER`` / ``--splitter``):

* ``scispacy_pysbd`` (default): a blank English spaCy pipeline with scispaCy's tokenizer and its
  ``pysbd_sentencizer``. It needs no model package, so it works offline (the scispaCy model
  packages are not on PyPI).
* ``en_core_sci_sm``: the scispaCy model the published code loads, when it is installed; its parser
  places the sentence boundaries, with the tagger and NER disabled as in the published code.

A pipeline is built once per process. Paragraphs are tokenized in batches; sentence boundaries are
then added only to the documents that need them (splitting is the expensive step).

The default splitter gives exactly the sentences of scispaCy's ``pysbd_sentencizer``, faster:

* pysbd locates each sentence in the text by compiling the sentence itself into a regular expression
  (``re.escape(sentence) + "\\s*"``); :class:`_LocatingSegmenter` finds the same occurrence with
  ``str.find`` and a whitespace scan instead;
* pysbd builds more small expressions per text than the 512 that Python's ``re`` module caches, so it
  recompiles them for every paragraph; building the pipeline raises that cache limit;
* for each abbreviation, pysbd rewrites the whole text once per occurrence of the abbreviation's
  letters at a word start (``a`` at every word starting with "a"); each rewrite only turns periods
  into a placeholder and cannot enable another, so :class:`_OnceAbbreviationReplacer` skips
  rewrites it has already applied;
* pysbd applies its rules with ``re.sub(pattern_string, ...)``; the compiled patterns are kept
  (``pysbd.utils.Text.apply`` is replaced by an equivalent for the whole process);
* sentence starts are computed from token offsets without a pass over spaCy token objects;
* an abbreviation rewrite of pysbd (a period after the abbreviation becomes a placeholder) is skipped
  when the text holds no period after the abbreviation as written;
* the tokenizer computes no lexical attributes for new words (offsets do not depend on them);
* two list-item expressions are replaced by equivalent ones that test one look-behind, and the scan for
  numbered lists is skipped when the text has no digit followed by ". ", ".)" or ") " (it finds nothing).

Splitting is skipped altogether for paragraphs whose drop is certain without it
(:mod:`citeworth_assets.lib.citeworth.fate`).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import cache

from citeworth_assets.lib.settings import SettingError

SPLITTERS = ("scispacy_pysbd", "en_core_sci_sm")
REGEX_CACHE_SIZE = 100_000


class SentenceSplitter:
    """Tokens and sentence boundaries of paragraphs, with one spaCy pipeline per process."""

    def __init__(self, name: str = "scispacy_pysbd"):
        if name not in SPLITTERS:
            raise SettingError(
                f"unknown sentence splitter {name!r} (CITEWORTH_SPLITTER / --splitter): use one of {SPLITTERS}"
            )
        self.name = name
        self.nlp = _pipeline(name)
        self._components = [component for _, component in self.nlp.pipeline]

    def tokenize(self, texts: Iterable[str], batch_size: int = 256) -> Iterator:
        """spaCy documents holding only tokens, in the order of ``texts``."""
        return self.nlp.tokenizer.pipe(texts, batch_size=batch_size)

    def sentence_bounds(self, docs: list, texts: list[str]) -> list[list[tuple[int, int]]]:
        """(start_char, end_char) of each sentence of tokenized documents, as ``doc.sents`` gives them.

        ``texts`` are the documents' texts (``doc.text`` would rebuild them from the tokens).
        """
        if self.name != "scispacy_pysbd":
            for component in self._components:  # a model's components work in batches
                docs = (
                    list(component.pipe(docs, batch_size=64))
                    if hasattr(component, "pipe")
                    else list(map(component, docs))
                )
            return [[(sentence.start_char, sentence.end_char) for sentence in doc.sents] for doc in docs]
        bounds = []
        for doc, text in zip(docs, texts):
            starts, lengths = doc.to_array("IDX").tolist(), doc.to_array("LENGTH").tolist()
            first = pysbd_sentence_starts(text, starts, lengths)
            bounds.append(
                [(starts[a], starts[b - 1] + lengths[b - 1]) for a, b in zip(first, first[1:] + [len(starts)])]
            )
        return bounds

    def split(self, text: str) -> list[tuple[int, int]]:
        return self.sentence_bounds([self.nlp.tokenizer(text)], [text])[0]


@cache
def _pipeline(name: str):
    import spacy

    if name == "en_core_sci_sm":
        try:
            return spacy.load("en_core_sci_sm", disable=["tagger", "ner"])
        except OSError as error:
            raise SettingError(
                "sentence splitter 'en_core_sci_sm' needs the scispaCy model package en_core_sci_sm installed "
                "(CITEWORTH_SPLITTER / --splitter); use 'scispacy_pysbd' offline"
            ) from error
    from scispacy.custom_tokenizer import combined_rule_tokenizer

    re._MAXCACHE = max(re._MAXCACHE, REGEX_CACHE_SIZE)
    nlp = spacy.blank("en")
    with warnings.catch_warnings():  # scispaCy's infix expressions make re warn about a possible set union
        warnings.simplefilter("ignore", FutureWarning)
        nlp.tokenizer = combined_rule_tokenizer(nlp)
    # Token boundaries do not depend on lexical attributes (shape, stop word, like_num, ...), which spaCy
    # computes for every new word: the splitter reads only token offsets, so none are computed.
    nlp.vocab.lex_attr_getters = {}
    _register_sentencizer()
    nlp.add_pipe("citeworth_pysbd_sentencizer")
    return nlp


@cache
def _compiled(pattern, flags: int = 0) -> re.Pattern:
    return re.compile(pattern, flags)


ORIGINAL_TEXT_APPLY = None  # pysbd's own, kept so that tests can compare with it


def _apply_rules(text, *rules):
    """pysbd's ``Text.apply`` (``re.sub`` of each rule in turn) with the compiled patterns kept."""
    for rule in rules:
        text = _compiled(rule.pattern).sub(rule.replacement, text)
    return text


# Characters that re.IGNORECASE matches to an ASCII letter, or whose lower case has another length.
CASE_FOLDING_SPECIALS = "\u0130\u0131\u017f\u212a"


def _word_start_matches(text: str, lowered: str, word: str) -> list[str]:
    """``re.findall(r"(?:^|\\s|\\r|\\n)" + word, text, re.IGNORECASE)`` for a lower-case ASCII word.

    Valid when ``text`` holds none of :data:`CASE_FOLDING_SPECIALS`: then ``lowered`` lines up with
    ``text`` and case-insensitive matching of ASCII letters is comparison of lower cases.
    """
    matches, position, size = [], 0, len(word)
    while (found := lowered.find(word, position)) >= 0:
        if found == 0:
            matches.append(text[:size])
            position = size
        elif text[found - 1].isspace():
            matches.append(text[found - 1 : found + size])
            position = found + size
        else:
            position = found + 1
    return matches


@cache
def _abbreviations(abbreviation) -> list[tuple[str, bool]]:
    """pysbd's abbreviations, stripped, each with whether it is a plain lower-case ASCII word."""
    stripped = [abbr.strip() for abbr in abbreviation.ABBREVIATIONS]
    return [(abbr, abbr.isalpha() and abbr.isascii() and abbr.islower()) for abbr in stripped]


def _period_after(text: str, written: str) -> bool:
    """Whether pysbd's rewrites of an abbreviation as written can apply: they turn a period after it, at the
    text's start or after a space, into a placeholder (for a word, their pattern is the literal text)."""
    if not written.isalnum():
        return True
    target = written + "."
    found = text.find(target)
    while found >= 0:
        if found == 0 or text[found - 1].isspace():
            return True
        found = text.find(target, found + 1)
    return False


def _abbreviation_replacer_class():
    from pysbd.lang.english import English

    class _OnceAbbreviationReplacer(English.AbbreviationReplacer):
        """pysbd's abbreviation replacer, with repeated identical rewrites of the text skipped."""

        def search_for_abbreviations_in_string(self, text):
            lowered = text.lower()
            abbreviation = self.lang.Abbreviation
            plain_case = not any(char in text for char in CASE_FOLDING_SPECIALS)
            for stripped, plain in [entry for entry in _abbreviations(abbreviation) if entry[0] in lowered]:
                if plain_case and plain:
                    matches = _word_start_matches(text, lowered, stripped)
                else:
                    matches = _compiled(rf"(?:^|\s|\r|\n){stripped}", re.IGNORECASE).findall(text)
                if not matches:
                    continue
                # pysbd's "next word" expression looks behind for the literal text "{abbr} ".
                marker = "{" + stripped + "} "
                next_chars = (
                    _compiled(r"(?<={" + re.escape(stripped) + "} ).{1}").findall(text) if marker in text else []
                )
                if not next_chars:  # every occurrence is rewritten: once per way it is written
                    firsts = {}
                    for index, match in enumerate(matches):
                        firsts.setdefault(match.strip(), (index, match))
                    for written, (index, match) in firsts.items():
                        if _period_after(text, written):
                            text = self.scan_for_replacements(text, match, index, next_chars)
                    continue
                applied = set()
                for index, match in enumerate(matches):
                    char = next_chars[index] if index < len(next_chars) else ""
                    lower = match.strip().lower()
                    prepositive = lower in abbreviation.PREPOSITIVE_ABBREVIATIONS
                    if str(char).isupper() and not prepositive:
                        continue  # pysbd leaves the text as it is
                    written = match.strip()
                    rewrite = (prepositive, lower in abbreviation.NUMBER_ABBREVIATIONS, written)
                    if rewrite not in applied:
                        applied.add(rewrite)
                        if _period_after(text, written):
                            text = self.scan_for_replacements(text, match, index, next_chars)
            return text

    return _OnceAbbreviationReplacer


# pysbd's list-item expressions try three or twelve look-behind alternatives at every character; these find
# the same matches (preceded by a space or the start; by a space, "(" or the start) with one test.
FAST_LIST_PATTERNS = {
    "ALPHABETICAL_LIST_WITH_PERIODS": r"(?<!\S)[a-z](?=\.)",
    "ALPHABETICAL_LIST_WITH_PARENS": r"(?<![^\s(])[a-z]+(?=\))",
}
# Every match of the numbered-list expressions holds a digit then ". " or ".)" (periods), or ") " (brackets):
# without one, pysbd's scan finds no item and changes nothing.
LIST_PRECONDITIONS = {"NUMBERED_LIST_REGEX_1": r"\d\.[\s)]", "NUMBERED_LIST_PARENS_REGEX": r"\d\)\s"}
ORIGINAL_LIST_ITEMS: dict = {}  # pysbd's own attributes, kept so that tests can compare with them


def _speed_up_list_items() -> None:
    from pysbd.lists_item_replacer import ListItemReplacer

    if ORIGINAL_LIST_ITEMS:
        return
    ORIGINAL_LIST_ITEMS.update({name: getattr(ListItemReplacer, name) for name in [*FAST_LIST_PATTERNS, "scan_lists"]})
    scan_lists = ListItemReplacer.scan_lists
    preconditions = {
        getattr(ListItemReplacer, name): re.compile(pattern) for name, pattern in LIST_PRECONDITIONS.items()
    }

    def scan_lists_if_any(self, regex1, regex2, replacement, strip=False):
        precondition = preconditions.get(regex1)
        if precondition is None or precondition.search(self.text):
            scan_lists(self, regex1, regex2, replacement, strip)

    for name, pattern in FAST_LIST_PATTERNS.items():
        setattr(ListItemReplacer, name, pattern)
    ListItemReplacer.scan_lists = scan_lists_if_any


@contextmanager
def pysbd_as_installed():
    """pysbd exactly as installed for the duration (tests compare the fast splitter with it)."""
    import pysbd.utils
    from pysbd.lists_item_replacer import ListItemReplacer

    patched = {name: getattr(ListItemReplacer, name) for name in ORIGINAL_LIST_ITEMS}
    patched_apply = pysbd.utils.Text.apply
    for name, value in ORIGINAL_LIST_ITEMS.items():
        setattr(ListItemReplacer, name, value)
    if ORIGINAL_TEXT_APPLY is not None:
        pysbd.utils.Text.apply = ORIGINAL_TEXT_APPLY
    try:
        yield
    finally:
        for name, value in patched.items():
            setattr(ListItemReplacer, name, value)
        pysbd.utils.Text.apply = patched_apply


class _LocatingSegmenter:
    """pysbd's segmenter with its sentence-locating step done without compiling each sentence."""

    def __init__(self):
        import pysbd
        import pysbd.utils
        from pysbd.processor import Processor

        if pysbd.utils.Text.apply is not _apply_rules:  # same substitutions, without a cache lookup per rule
            global ORIGINAL_TEXT_APPLY
            ORIGINAL_TEXT_APPLY = pysbd.utils.Text.apply
            pysbd.utils.Text.apply = _apply_rules
        _speed_up_list_items()

        self._segmenter = pysbd.Segmenter(language="en", clean=False, char_span=False)
        replacer = _abbreviation_replacer_class()

        class OnceProcessor(Processor):
            def abbreviations_replacer(self):
                return replacer(self.text, self.lang)

        self._processor = OnceProcessor

    def segment(self, text: str) -> list[tuple[str, int, int]]:
        """(sentence with trailing whitespace, start, end), as ``Segmenter(char_span=True).segment``."""
        if not text:
            return []
        segmenter = self._segmenter
        segmenter.original_text = text
        spans, prior_end = [], 0
        language = segmenter.language_module
        for sentence in self._processor(text, language, char_span=False).process():
            # pysbd searches from the text's start every time, which is quadratic on repeated sentences. The
            # prior span ends before a non-space (its trailing spaces are part of it), so an occurrence ends
            # after it only if it starts at prior_end - len(sentence) + 1 or later: search from there.
            position = max(0, prior_end - len(sentence) + 1)
            while True:  # the first occurrence of sentence + trailing whitespace that ends after the prior one
                start = text.find(sentence, position)
                if start < 0:
                    break
                end = start + len(sentence)
                while end < len(text) and text[end].isspace():
                    end += 1
                if end > prior_end:
                    spans.append((text[start:end], start, end))
                    prior_end = end
                    break
                position = end if end > start else start + 1
        return spans


def pysbd_sentence_starts(text: str, starts: list[int], lengths: list[int]) -> list[int]:
    """Indices of the tokens that start a sentence, by the rules of scispaCy's ``pysbd_sentencizer``.

    ``starts`` and ``lengths`` are the tokens' character offsets and lengths in ``text``. pysbd's
    sentence starts count when they fall on a token start and the sentence end (less trailing
    spaces) on a token end, unless the token before is an abbreviation of scispaCy's list, or a
    first token of newlines only; a token after one holding two or more newlines starts one too.
    """
    if not starts:
        return []
    from scispacy.consts import ABBREVIATIONS  # imported here: importing this module loads no NLP library

    token_at = {start: i for i, start in enumerate(starts)}
    ends = {start + length for start, length in zip(starts, lengths)}
    from_pysbd = set()
    for sentence, start, end in _segmenter().segment(text):
        end -= len(sentence) - len(sentence.rstrip(" "))
        if start in token_at and end in ends and end > start:
            from_pysbd.add(token_at[start])
    after_newlines = set()
    if "\n" in text:
        after_newlines = {
            i + 1 for i in range(1, len(starts) - 1) if text.count("\n", starts[i], starts[i] + lengths[i]) >= 2
        }
    sentence_starts = [0]
    for i in sorted((from_pysbd | after_newlines) - {0}):
        if i in from_pysbd:
            previous = text[starts[i - 1] : starts[i - 1] + lengths[i - 1]]
            if not (previous in ABBREVIATIONS or (i == 1 and all(c == "\n" for c in previous))):
                sentence_starts.append(i)
        else:
            sentence_starts.append(i)
    return sentence_starts


def _register_sentencizer() -> None:
    """Register the spaCy component when a pipeline is built: importing spaCy takes about 2 s, which loading
    the Dagster definitions (which import this module) need not pay."""
    from spacy.language import Language

    if not Language.has_factory("citeworth_pysbd_sentencizer"):
        Language.component("citeworth_pysbd_sentencizer", func=citeworth_pysbd_sentencizer)


def citeworth_pysbd_sentencizer(doc):
    """scispaCy's ``pysbd_sentencizer`` (same boundaries, see the module docstring); registered with spaCy
    when the first pipeline is built, so that importing this module loads no NLP library."""
    arrays = doc.to_array(["IDX", "LENGTH"]).tolist()
    sentence_starts = set(pysbd_sentence_starts(doc.text, [a for a, _ in arrays], [b for _, b in arrays]))
    for token in doc:
        token.is_sent_start = token.i in sentence_starts
    return doc


@cache
def _segmenter() -> _LocatingSegmenter:
    return _LocatingSegmenter()


@cache
def splitter(name: str = "scispacy_pysbd") -> SentenceSplitter:
    return SentenceSplitter(name)
