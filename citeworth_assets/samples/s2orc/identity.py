"""Who a paper is (fields, title, authors, year, citation style) and its abstract.

Both derive from ``(seed, index)`` alone, because papers that cite it need them too.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import NamedTuple

from citeworth_assets.lib.fields import MAG_FIELDS
from citeworth_assets.samples.s2orc.graph import _between, _outcome, _pick, _rng
from citeworth_assets.samples.s2orc.vocabulary import (
    _FIELD_VOCAB,
    _FIRST_NAMES,
    _LAST_NAMES,
    _MIDDLE_INITIALS,
)


class _Identity(NamedTuple):
    fields: tuple[str, ...]  # the paper's MAG fields (shown unless it fails mag_field_of_study)
    title: str
    authors: tuple[tuple[str, tuple[str, ...], str, str], ...]  # (first, middle, last, suffix)
    year: int | None
    style: str  # citation style of its own text: numeric, author_year or superscript


@lru_cache(maxsize=64)
def _field_cycle(seed: int) -> tuple[str, ...]:
    fields = list(MAG_FIELDS)
    random.Random(f"{seed}:field-cycle").shuffle(fields)
    return tuple(fields)


_TITLE_TEMPLATES = (
    "{Method} for {topic} in {object}",
    "On the role of {object} in {topic}",
    "{Measure} and {topic}: evidence from {object}",
    "A study of {topic} using {method}",
    "Effects of {object} on {measure}",
    "Towards a better understanding of {topic}",
)


def _capitalize(text: str) -> str:
    return text[:1].upper() + text[1:]


@lru_cache(maxsize=128)
def _identity(seed: int, index: int) -> _Identity:
    """The paper's bibliographic identity; cached because ~10 papers cite each paper nearby."""
    rng = _rng(seed, index, "identity")
    cycle = _field_cycle(seed)
    fields = [cycle[index % len(cycle)]]  # a cycle guarantees every field in any 19 papers
    if rng.random() < 0.15:  # multi-field papers, as in the real sample (~12 %)
        others = [f for f in MAG_FIELDS if f != fields[0]]
        fields += rng.sample(others, _pick(rng, (1, 1, 2)))
    vocab = _FIELD_VOCAB[fields[0]]
    method, measure = _pick(rng, vocab.methods), _pick(rng, vocab.measures)
    title = _pick(rng, _TITLE_TEMPLATES).format(
        Method=_capitalize(method),
        Measure=_capitalize(measure),
        topic=_pick(rng, vocab.topics),
        object=_pick(rng, vocab.objects),
        method=method,
        measure=measure,
    )
    if rng.random() < 0.015:  # PDF-extracted titles sometimes have text glued on
        title += _pick(rng, (" Journal of Applied Research 12(3)", " 1 Introduction", " Running title: preprint"))
    authors = tuple(_random_author(rng) for _ in range(_pick(rng, (1, 2, 2, 3, 3, 4, 5, 6, 8))))
    year = None if rng.random() < 0.015 else int(rng.triangular(1965, 2020.99, 2016))
    style = rng.choices(("numeric", "author_year", "superscript"), (47, 47, 6))[0]
    return _Identity(tuple(fields), title, authors, year, style)


def _random_author(rng: random.Random) -> tuple[str, tuple[str, ...], str, str]:
    first = "" if rng.random() < 0.01 else _pick(rng, _FIRST_NAMES)  # real dumps have empty first names
    middle = (_pick(rng, _MIDDLE_INITIALS),) if rng.random() < 0.25 else ()
    suffix = "Jr." if rng.random() < 0.01 else ""
    return first, middle, _pick(rng, _LAST_NAMES), suffix


def _author_record(author: tuple[str, tuple[str, ...], str, str]) -> dict:
    first, middle, last, suffix = author
    return {"first": first, "middle": list(middle), "last": last, "suffix": suffix}


def _author_year_label(authors, year: int | None, suffix: str = "") -> tuple[str, str]:
    """("Smith et al.", "2019a") as an author-year citation shows a work."""
    lasts = [a[2] for a in authors]
    if len(lasts) == 1:
        names = lasts[0]
    elif len(lasts) == 2:
        names = f"{lasts[0]} and {lasts[1]}"
    else:
        names = f"{lasts[0]} et al."
    return names, ("n.d." if year is None else f"{year}{suffix}")


# ---------------------------------------------------------------------------------------------
# Abstracts: derivable from the index alone, so a citing paper can paraphrase its cited abstract.
# ---------------------------------------------------------------------------------------------

# (lead, claim clause, how a citing sentence reports it): the clause is what a citing sentence
# may copy (CiteSum's ROUGE filter); "that" clauses are findings ("X showed that ..."), "proposal"
# clauses are noun phrases ("X proposed ..."), "passive" clauses are full clauses ("In X, ...").
_ABSTRACT_SENTENCES = (
    ("We show that", "the choice of {object} strongly affects {measure} in {topic}", "that"),
    ("We propose", "a new {method} procedure for the analysis of {object}", "proposal"),
    ("Our results demonstrate that", "the use of {method} improves estimates of {measure} by {pct}%", "that"),
    ("In this study,", "a sample of {n} {object} was analysed with {method}", "passive"),
    ("We find that", "{measure} is closely linked to {topic} across {object}", "that"),
    ("These findings suggest that", "{topic} should be considered whenever {object} are studied", "that"),
    ("Finally, we argue that", "the use of {method} provides a reliable basis for {topic}", "that"),
    ("Moreover,", "the {measure} of {object} depends on the choice of {method}", "that"),
)


class _Abstract(NamedTuple):
    sentences: tuple[str, ...]
    claims: tuple[tuple[str, str], ...]  # (copyable clause, reporting form), without leads or citations


@lru_cache(maxsize=128)
def _abstract_parts(seed: int, index: int) -> _Abstract:
    ident = _identity(seed, index)
    vocab = _FIELD_VOCAB[ident.fields[0]]
    rng = _rng(seed, index, "abstract")
    topic, obj = _pick(rng, vocab.topics), _pick(rng, vocab.objects)
    sentences = [f"This paper examines {topic} in {obj}."]
    claims = []
    for lead, clause, form in rng.sample(_ABSTRACT_SENTENCES, _between(rng, 2, 5)):
        text = clause.format(
            object=_pick(rng, vocab.objects),
            measure=_pick(rng, vocab.measures),
            topic=_pick(rng, vocab.topics),
            method=_pick(rng, vocab.methods),
            n=_between(rng, 12, 480),
            pct=_between(rng, 3, 65),
        )
        claims.append((text, form))
        sentences.append(f"{lead} {text}.")
    if ident.style == "numeric" and len(sentences) < 6 and rng.random() < 0.08:  # abstracts that cite, like 18980380
        sentences.insert(1, f"In particular, we generalize a previous study [1] of {topic}.")
    return _Abstract(tuple(sentences), tuple(claims))


def _abstract_text(seed: int, index: int) -> str:
    return " ".join(_abstract_parts(seed, index).sentences)


def abstract_for(seed: int, index: int) -> str | None:
    """The metadata ``abstract`` of the paper at ``index``: text, or null / "" for papers built to
    fail the abstract criterion (their pdf parse still carries the parsed abstract)."""
    reason, variant = _outcome(seed, index)
    if reason == "abstract":
        return None if variant == "null" else ""
    return _abstract_text(seed, index)
