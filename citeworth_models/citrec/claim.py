"""``claim``: predicate:argument tuples of a dependency parse as VSM terms (Saier 2019 §5.2.2, Algorithm 1).

Algorithm 1 as the thesis states it: strip quotation marks; merge citation groups ("CIT , CIT" -> "CIT");
for every claim (predicate) of the parse take the predicate's lemma (a copula's clause is centred on the
copula) and, for every NOUN in the claim's tree, the argument formed by resolving its compounds, conjuncts
and adjectival/adverbial modifiers (``name goeswith mwe compound conj amod advmod``); output
``predicate:argument``. Argument order is not kept, so active and passive voice give the same tuples.
Candidates are ranked by cosine between TF-IDF weighted sums of tuple counts, idf = log(|C| / df).

PredPatt cannot be installed here; spaCy's parser stands in, and differs where:

* spaCy's English labels are ClearNLP's, not Universal Dependencies: a copula ("is") is itself the root, so
  the predicate is its lemma "be" as in the thesis, reached without the ``cop`` indirection; hyphen
  compounds ("context-based") attach by ``npadvmod``, which is therefore resolved as well;
* a predicate is every verb that is not an auxiliary or a noun modifier, plus each sentence root, and its
  tree is its whole subtree: PredPatt's argument clauses nest the same way ("show" keeps the nouns of the
  clause it governs), but PredPatt's own predicate rules are finer;
* lemmas are spaCy's, not NLTK's WordNetLemmatizer's.

The thesis keeps the merged ``CIT`` in the text it parses; with the small spaCy pipeline bare markers are
read as nouns and objects and scramble the clauses, so ``drop_markers`` (default on) removes them instead.
Set it off for Algorithm 1 word for word.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial

from citeworth_models.citrec.nlp import ParserSettings, parse
from citeworth_models.citrec.noun_phrases import without_markers
from citeworth_models.citrec.text import MARKER, merge_marker_groups
from citeworth_models.citrec.vsm import VectorSpaceModel

QUOTATION_MARKS = re.compile(r"[“”\"«»‹›<>]")
RESOLVE = frozenset({"name", "goeswith", "mwe", "compound", "conj", "amod", "advmod", "npadvmod", "flat", "fixed"})
NOT_PREDICATE = frozenset({"aux", "auxpass", "amod", "compound", "npadvmod"})


@dataclass(frozen=True)
class ClaimSettings:
    drop_markers: bool = True
    parser: ParserSettings = field(default_factory=ParserSettings)


def prepare(text: str, settings: ClaimSettings = ClaimSettings()) -> str:
    text = QUOTATION_MARKS.sub(" ", text)
    if settings.drop_markers:
        return without_markers(text)[0]
    return merge_marker_groups(text)


def _is_predicate(token) -> bool:
    return token.dep_ == "ROOT" or (token.pos_ == "VERB" and token.dep_ not in NOT_PREDICATE)


def _is_marker(token) -> bool:
    return bool(MARKER.fullmatch(token.text))


def _absorbed(noun) -> bool:
    """True when the noun is part of another noun's argument (a compound part, a conjunct, a modifier's noun)."""
    token = noun
    while token.dep_ in RESOLVE and token.head is not token:
        token = token.head
        if token.pos_ == "NOUN":
            return True
    return False


def _resolve(noun) -> str:
    found, stack = {noun.i: noun}, [noun]
    while stack:
        for child in stack.pop().children:
            if child.dep_ in RESOLVE and child.i not in found:
                found[child.i] = child
                stack.append(child)
    words = [found[i] for i in sorted(found) if not found[i].is_punct and not _is_marker(found[i])]
    return " ".join(t.lower_ for t in words)


def claim_tuples(doc) -> list[str]:
    """R_claim of one parsed text: ``predicate:argument`` for each noun in each predicate's tree."""
    output = []
    for token in doc:
        if not _is_predicate(token):
            continue
        predicate = token.lemma_.lower()
        for node in token.subtree:
            if node.pos_ == "NOUN" and not _is_marker(node) and not _absorbed(node):
                output.append(f"{predicate}:{_resolve(node)}")
    return output


def claim_terms(texts: Sequence[str], settings: ClaimSettings = ClaimSettings()) -> list[list[str]]:
    return [claim_tuples(doc) for doc in parse([prepare(t, settings) for t in texts], settings.parser)]


def claim_model(settings: ClaimSettings = ClaimSettings()) -> VectorSpaceModel:
    return VectorSpaceModel(partial(claim_terms, settings=settings), weighting="tfidf", name="claim")
