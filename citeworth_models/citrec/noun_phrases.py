"""``np`` and ``npmarker``: noun phrases as terms of a vector space model (Saier 2019 §5.1.2).

R_NP(c) holds the maximal noun phrases of c: "language model training" but not "language model" inside it.
spaCy's noun chunks are exactly such maximal base noun phrases; determiners, pronouns and punctuation are
dropped ("the context-based methods" -> "context based methods"). The phrase set P is, like the thesis's list
(phrases seen more than once), every noun phrase found in at least two training contexts; a context's terms are
the maximal matches of P within its noun chunks (a chunk not in P still gives its longest parts that are).
R_NPmk(c) keeps the one phrase of at least two words in P that directly precedes the marker of the citation to
predict (``MAINCIT``, or the citation group holding it); contexts without one are outside NPmarker's reach.
Both sides of the comparison use the same representation; candidates sum their contexts' count vectors and
are ranked by cosine (no idf, as §5.1.2 defines it).

Citation markers are removed before parsing (their position is kept): the small spaCy pipeline reads bare
``CIT`` tokens as nouns and objects, which breaks the noun chunks around them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from citeworth_models.citrec.nlp import ParserSettings, parse
from citeworth_models.citrec.text import MARKER_GROUP
from citeworth_models.citrec.vsm import VectorSpaceModel

SKIPPED_POS = {"DET", "PRON", "PUNCT", "SPACE", "PART"}


def without_markers(text: str) -> tuple[str, int | None]:
    """The text with citation groups removed, and the character offset where the ``MAINCIT`` group stood."""
    out, position, main_at = "", 0, None
    for group in MARKER_GROUP.finditer(text):
        out += text[position : group.start()].rstrip()
        if "MAINCIT" in group.group(0):
            main_at = len(out)
        out += " "
        position = group.end()
        while position < len(text) and text[position] == " ":
            position += 1
    out += text[position:]
    return out, main_at


def _phrase_tokens(chunk) -> list:
    return [t for t in chunk if t.pos_ not in SKIPPED_POS and not t.is_punct and t.tag_ != "POS"]


def noun_phrases(doc) -> list[str]:
    """R_NP: the maximal noun phrases of a parsed text, lower-cased, without determiners and punctuation."""
    phrases = []
    for chunk in doc.noun_chunks:
        tokens = _phrase_tokens(chunk)
        if tokens:
            phrases.append(" ".join(t.lower_ for t in tokens))
    return phrases


def marker_noun_phrase(doc, main_at: int | None, min_words: int = 2) -> list[str]:
    """R_NPmk^{2+}: the noun phrase of ``min_words``+ words ending right where the cited marker stood."""
    if main_at is None:
        return []
    for chunk in doc.noun_chunks:
        tokens = _phrase_tokens(chunk)
        if len(tokens) >= min_words and tokens[-1].idx + len(tokens[-1].text) == main_at:
            return [" ".join(t.lower_ for t in tokens)]
    return []


@dataclass(frozen=True)
class NounPhraseSettings:
    min_df: int = 2  # phrases seen in fewer training contexts are dropped (the thesis's list kept repeats only)
    min_marker_words: int = 2
    parser: ParserSettings = field(default_factory=ParserSettings)


def np_terms(texts: Sequence[str], settings: NounPhraseSettings = NounPhraseSettings()) -> list[list[str]]:
    clean = [without_markers(t)[0] for t in texts]
    return [noun_phrases(doc) for doc in parse(clean, settings.parser)]


def npmarker_terms(texts: Sequence[str], settings: NounPhraseSettings = NounPhraseSettings()) -> list[list[str]]:
    cleaned = [without_markers(t) for t in texts]
    docs = parse([c for c, _ in cleaned], settings.parser)
    return [marker_noun_phrase(doc, main_at, settings.min_marker_words) for doc, (_, main_at) in zip(docs, cleaned)]


def maximal_matches(phrase: str, phrase_set: frozenset[str]) -> list[str]:
    """The parts of a noun phrase that are in P and not extendable within it, longest first from the left: R_NP's
    maximal matches (t in P, t extended by its preceding or succeeding word not in P)."""
    words, found, start = phrase.split(), [], 0
    while start < len(words):
        end = next((e for e in range(len(words), start, -1) if " ".join(words[start:e]) in phrase_set), None)
        if end is None:
            start += 1
        else:
            found.append(" ".join(words[start:end]))
            start = end
    return found


class PhraseSetModel(VectorSpaceModel):
    """A count VSM over noun phrases that belong to P, every noun phrase seen in ``min_df``+ training contexts
    (the thesis's list kept phrases seen more than once); P is learnt when fitted."""

    def __init__(self, settings: NounPhraseSettings, name: str):
        super().__init__(self._terms, "count", 1, name)
        self.settings, self.phrase_set = settings, frozenset()

    def fit(self, candidate_contexts: Sequence[Sequence[str]]) -> PhraseSetModel:
        texts = [text for group in candidate_contexts for text in group]
        counts = Counter(phrase for phrases in np_terms(texts, self.settings) for phrase in set(phrases))
        self.phrase_set = frozenset(phrase for phrase, n in counts.items() if n >= self.settings.min_df)
        return super().fit(candidate_contexts)

    def _terms(self, texts: Sequence[str]) -> list[list[str]]:
        raise NotImplementedError


class NpModel(PhraseSetModel):
    """R_NP: each noun chunk's maximal matches in P."""

    def __init__(self, settings: NounPhraseSettings = NounPhraseSettings()):
        super().__init__(settings, "np")

    def _terms(self, texts: Sequence[str]) -> list[list[str]]:
        return [
            [m for phrase in terms for m in maximal_matches(phrase, self.phrase_set)]
            for terms in np_terms(texts, self.settings)
        ]


def np_model(settings: NounPhraseSettings = NounPhraseSettings()) -> NpModel:
    return NpModel(settings)


class NpMarkerModel(PhraseSetModel):
    """NP vector space over the marker's noun phrase; applicable only where such a phrase exists.

    R_NPmk^{2+}(c) is a subset of R_NP(c), whose phrases belong to P. A phrase before the marker counts only when it,
    or else its longest suffix of ``min_marker_words``+ words (which still directly precedes the marker), is in P; a
    context without one is outside NPmarker's reach, as the thesis evaluates it (20.5 % of its test items)."""

    def __init__(self, settings: NounPhraseSettings = NounPhraseSettings()):
        super().__init__(settings, "npmarker")

    def _in_phrase_set(self, phrase: str) -> str | None:
        words = phrase.split()
        for start in range(0, len(words) - self.settings.min_marker_words + 1):
            if (suffix := " ".join(words[start:])) in self.phrase_set:
                return suffix
        return None

    def _terms(self, texts: Sequence[str]) -> list[list[str]]:
        raw = npmarker_terms(texts, self.settings)
        return [[known for phrase in terms if (known := self._in_phrase_set(phrase))] for terms in raw]

    def applicable(self, queries: Sequence[str]) -> np.ndarray:
        return np.array([bool(terms) for terms in self.extract(queries)], dtype=bool)
