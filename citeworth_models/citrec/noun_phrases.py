"""``np`` and ``npmarker``: noun phrases as terms of a vector space model (seeds/004 §5.1.2).

R_NP(c) holds the maximal noun phrases of c: "language model training" but not "language model" inside it.
spaCy's noun chunks are exactly such maximal base noun phrases; determiners, pronouns and punctuation are
dropped ("the context-based methods" -> "context based methods"). Like the thesis's phrase list, which kept
phrases seen more than once, the vocabulary keeps phrases found in at least two training contexts.
R_NPmk(c) keeps the one phrase of at least two words that directly precedes the marker of the citation to
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
from functools import partial

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


def np_model(settings: NounPhraseSettings = NounPhraseSettings()) -> VectorSpaceModel:
    return VectorSpaceModel(partial(np_terms, settings=settings), weighting="count", min_df=settings.min_df, name="np")


class NpMarkerModel(VectorSpaceModel):
    """NP vector space over the marker's noun phrase; applicable only where such a phrase exists.

    R_NPmk^{2+}(c) is a subset of R_NP(c), whose phrases belong to the phrase set P: every noun phrase seen more than
    once (here: in at least ``min_df`` training contexts, wherever it stands). A phrase before the marker counts only
    when it, or else its longest suffix of ``min_marker_words``+ words (which still directly precedes the marker), is
    in P; a context without one is outside NPmarker's reach, as the thesis evaluates it (20.5 % of its test items)."""

    def __init__(self, settings: NounPhraseSettings = NounPhraseSettings()):
        super().__init__(self._marker_terms, "count", 1, "npmarker")
        self.settings, self.phrase_set = settings, frozenset()

    def fit(self, candidate_contexts: Sequence[Sequence[str]]) -> NpMarkerModel:
        texts = [text for group in candidate_contexts for text in group]
        counts = Counter(phrase for phrases in np_terms(texts, self.settings) for phrase in set(phrases))
        self.phrase_set = frozenset(phrase for phrase, n in counts.items() if n >= self.settings.min_df)
        return super().fit(candidate_contexts)

    def _in_phrase_set(self, phrase: str) -> str | None:
        words = phrase.split()
        for start in range(0, len(words) - self.settings.min_marker_words + 1):
            if (suffix := " ".join(words[start:])) in self.phrase_set:
                return suffix
        return None

    def _marker_terms(self, texts: Sequence[str]) -> list[list[str]]:
        raw = npmarker_terms(texts, self.settings)
        return [[known for phrase in terms if (known := self._in_phrase_set(phrase))] for terms in raw]

    def applicable(self, queries: Sequence[str]) -> np.ndarray:
        return np.array([bool(terms) for terms in self.extract(queries)], dtype=bool)
