"""NLTK's trained English Punkt as unarXive's published context extraction used it (Saier 2019 §4.2.5).

unarXive's ``extract_contexts.py`` loads NLTK's trained ``tokenizers/punkt/english.pickle`` (nltk 3.4.5), adds
the abbreviations al, fig, e.g, i.e, eq, cf, ref, refs and splits each text into sentences. Nothing may be
downloaded at run time, so the trained parameters ship with this package (``punkt_english.json.gz``: abbreviation
types, collocations, sentence starters and orthographic context; its ``provenance`` entry says where they come
from: NLTK's ``punkt_tab/english``, the same model as the pickle).

NLTK's Punkt changed after 3.4.5 in ways that move real sentence boundaries (a closing quote after a period;
"Sec. ." where a reference was removed): the ReDoS fix of NLTK issue #2866 dropped the word material before a
potential sentence end from the period-context pattern and decides each period from the word before it, and
curly quotes joined the non-word and realignment characters. :class:`Nltk345Tokenizer` restores the 3.4.5
pattern and loop (facts taken from nltk 3.4.5's ``punkt.py``); the annotation itself (abbreviations,
collocations, orthographic heuristics) did not change and is NLTK's. The 3.4.5 pattern backtracks
quadratically on a very long run of non-space characters without a period, which unarXive's texts do not hold
(formulae are replaced by FORMULA).

Presets (:data:`TOKENIZERS`): ``unarxive_published`` (the default: the published extraction, line for line) and
``untrained`` (an untrained Punkt that knows only the eight abbreviations, the setting used before the trained
parameters shipped; kept to measure the difference).
"""

from __future__ import annotations

import gzip
import json
import re
from collections import defaultdict
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

from nltk.tokenize.punkt import PunktLanguageVars, PunktParameters, PunktSentenceTokenizer

ABBREVIATIONS = ("al", "fig", "e.g", "i.e", "eq", "cf", "ref", "refs")
ENGLISH_PARAMETERS = Path(__file__).with_name("punkt_english.json.gz")
TOKENIZERS = ("unarxive_published", "untrained")
DEFAULT_TOKENIZER = "unarxive_published"


def english_parameters(abbreviations: tuple[str, ...] = ABBREVIATIONS) -> PunktParameters:
    """The shipped trained English parameters, plus ``abbreviations`` (as the published script adds them)."""
    data = json.loads(gzip.decompress(ENGLISH_PARAMETERS.read_bytes()))
    params = PunktParameters()
    params.abbrev_types = set(data["abbrev_types"]) | set(abbreviations)
    params.collocations = {tuple(pair) for pair in data["collocations"]}
    params.sent_starters = set(data["sent_starters"])
    params.ortho_context = defaultdict(int, data["ortho_context"])
    return params


class Nltk345LanguageVars(PunktLanguageVars):
    """nltk 3.4.5's patterns: no curly quotes among non-word and realignment characters; the period context
    takes the word material before the sentence-end character."""

    _re_non_word_chars = r"(?:[?!)\";}\]\*:@\'\({\[])"
    re_boundary_realignment = re.compile(r'["\')\]}]+?(?:\s+|(?=--)|$)', re.MULTILINE)
    _period_context_fmt = r"""
        \S*                          # some word material
        %(SentEndChars)s             # a potential sentence ending
        (?=(?P<after_tok>
            %(NonWord)s              # either other punctuation
            |
            \s+(?P<next_tok>\S+)     # or whitespace and some other token
        ))"""


class Nltk345Tokenizer(PunktSentenceTokenizer):
    """Punkt with nltk 3.4.5's candidate breaks: each (non-overlapping) period context is decided on its own."""

    def __init__(self, params: PunktParameters):
        super().__init__(params, lang_vars=Nltk345LanguageVars())

    def _slices_from_text(self, text: str) -> Iterator[slice]:
        last_break = 0
        for match in self._lang_vars.period_context_re().finditer(text):
            if self.text_contains_sentbreak(match.group() + match.group("after_tok")):
                yield slice(last_break, match.end())
                # the next sentence starts at the next token, or at the punctuation that follows the period
                last_break = match.start("next_tok") if match.group("next_tok") else match.end()
        yield slice(last_break, len(text.rstrip()))


@lru_cache(maxsize=4)
def sentence_tokenizer(name: str = DEFAULT_TOKENIZER) -> PunktSentenceTokenizer:
    """A preset by name (:data:`TOKENIZERS`); an unknown name is an error naming the presets."""
    if name == "unarxive_published":
        return Nltk345Tokenizer(english_parameters())
    if name == "untrained":
        params = PunktParameters()
        params.abbrev_types = set(ABBREVIATIONS)
        return PunktSentenceTokenizer(params)
    raise ValueError(f"unknown sentence tokenizer {name!r}; presets: {', '.join(TOKENIZERS)}")
