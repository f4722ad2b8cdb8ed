"""Defect writers: each writes one sentence (or two) that breaks one CiteWorth check."""

from __future__ import annotations

from typing import TYPE_CHECKING

from citeworth_assets.samples.s2orc import citing, grobid
from citeworth_assets.samples.s2orc.graph import _between, _pick
from citeworth_assets.samples.s2orc.text import _CLAIMS, _CONTINUATIONS, _Paragraph
from citeworth_assets.samples.s2orc.vocabulary import _LAST_NAMES

if TYPE_CHECKING:
    from citeworth_assets.samples.s2orc.paper import _PaperWriter


def _write_inline_citation(w: _PaperWriter, para: _Paragraph) -> None:
    """ "Smith et al. (2019) showed that ...": CiteWorth ignores inline citations."""
    rng = w.rng
    if not w.citable:
        return _write_missed_citation(w, para)
    item = _pick(rng, w.citable)
    w.first_citation_pending = False
    verb = _pick(rng, ("showed that", "reported that", "argued that"))
    clause = w._fill(_pick(rng, _CONTINUATIONS))
    if w.style == "numeric":
        para.add(f"{item.names} ")
        para.cite(f"[{item.number}]", w._ref_id(item))
    elif rng.random() < 0.5:
        para.cite(f"{item.names} ({item.year})", w._ref_id(item))
    else:
        para.add(f"{item.names} ")
        para.cite(f"({item.year})", w._ref_id(item))
    para.add(f" {verb} {clause}.")


def _write_mid_sentence_citation(w: _PaperWriter, para: _Paragraph) -> None:
    """ "As in [4], we use ...": the citation is not at the end of the sentence."""
    rng = w.rng
    if not w.citable:
        return _write_missed_citation(w, para)
    w.first_citation_pending = False
    if w.style == "superscript":
        item = _pick(rng, w.citable)
        para.add("Building on earlier work")
        para.cite(str(item.number), w._ref_id(item))
        para.add(f", we use {_pick(rng, w.vocab.methods)} for all {_pick(rng, w.vocab.objects)}.")
        return
    para.add(_pick(rng, ("As in ", "Following ", "Unlike ")))
    citing.citation_marker(w, para)
    para.add(w._fill(", we use {method} to study the {object} in this work."))


def _write_hanging_citation(w: _PaperWriter, para: _Paragraph) -> None:
    """ "... as shown by [3].": removing the citation leaves a dangling preposition."""
    rng = w.rng
    if not w.citable:
        return _write_missed_citation(w, para)
    para.add(w._fill(_pick(rng, _CLAIMS)))
    para.add(
        grobid.pointer_phrase(
            w, _pick(rng, (", as shown by ", ", see for example ", " as in ", ", see ", " following "))
        )
    )
    if w.style == "superscript":
        item = _pick(rng, w.citable)
        para.cite(f"[{item.number}]", w._ref_id(item))
        w.first_citation_pending = False
    else:
        citing.citation_marker(w, para)
    para.add(".")


def _write_missed_citation(w: _PaperWriter, para: _Paragraph) -> None:
    """A citation the parser missed: its text is there, but there is no cite span."""
    rng = w.rng
    if w.style == "author_year" or (w.style != "numeric" and rng.random() < 0.5):
        marker = f"({_pick(rng, _LAST_NAMES)}, {_between(rng, 1970, 2020)})"
    else:
        marker = f"[{_between(rng, 1, max(1, len(w.citable)))}]"
    para.add(f"{w._fill(_pick(rng, _CLAIMS))} {marker}.")


def _write_lowercase_start(w: _PaperWriter, para: _Paragraph) -> None:
    """A sentence starting in lower case, as when a PDF line break splits a sentence."""
    para.add(w._fill(_pick(w.rng, _CONTINUATIONS)) + ".")


def _write_missing_final_period(w: _PaperWriter, para: _Paragraph) -> None:
    """The paragraph's last sentence does not end with '.', '!' or '?'."""
    rng = w.rng
    para.add(
        _pick(
            rng,
            (
                w._fill("The following values of {measure} were obtained for the {object}:"),
                w._fill("The {measure} of the {object} is summarised below"),
                w._fill("Results for {object} are given in the next section;"),
            ),
        )
    )


def _write_short_sentence(w: _PaperWriter, para: _Paragraph) -> None:
    """A sentence shorter than 20 characters."""
    para.add(_pick(w.rng, ("This is expected.", "Results vary.", "Data not shown.", "See below.", "It is not.")))


def _write_crossing_citation(w: _PaperWriter, para: _Paragraph) -> None:
    """A cite span that runs across a sentence boundary."""
    rng = w.rng
    if w.first_citation_pending and w.citable:  # keep the paper's first span well-formed
        citing.cited_sentence(w, para)
        para.add(" ")
    para.add(w._fill(_pick(rng, _CLAIMS)) + " ")
    if w.style == "author_year" and len(w.citable) >= 2 and rng.random() < 0.5:
        a, b = rng.sample(w.citable, 2)
        para.cite(f"({a.names} {a.year}. {b.names} {b.year})", w._ref_id(a))
        para.add(".")
    else:
        item = _pick(rng, w.citable) if w.citable else None
        if item is None:
            marker = "[1]"
        elif w.style == "author_year":
            marker = f"({item.names}, {item.year})"
        else:
            marker = f"[{item.number}]"
        para.cite(f"{marker}. Moreover", w._ref_id(item) if item else None)
        para.add(", " + w._fill(_pick(rng, _CONTINUATIONS)) + ".")
    w.first_citation_pending = False


_EQUATIONS = (
    "The {measure} is estimated as ŷ = Σ_i w_i x_i (1) where w_i are weights fitted by {method}.",
    "Substituting (1) into (2) gives the estimator of {measure} used for the {object}.",
    "We minimise L(θ) = ‖y − Xθ‖² + λ‖θ‖₁ (3) over all admissible θ.",
)

_BRACKETED_DECIMALS = (
    "The mixing ratio was fixed at [1.5] for all {object} in this study.",
    "A fraction of [2/3] of the {object} met the inclusion criteria.",
    "Values of {measure} in the interval [0.2, 0.8] were considered plausible.",
)


def _fill_one_of(w: _PaperWriter, templates: tuple[str, ...]) -> str:
    """One of the templates, picked with the paper's generator, filled with its vocabulary."""
    return w._fill(_pick(w.rng, templates))


def _write_equation(w: _PaperWriter, para: _Paragraph) -> None:
    """Equation numbers "(1)" that look like citations to a careless regex."""
    para.add(_fill_one_of(w, _EQUATIONS))


def _write_bracketed_decimal(w: _PaperWriter, para: _Paragraph) -> None:
    """Brackets around numbers that are not citations: "[1.5]", "[2/3]"."""
    para.add(_fill_one_of(w, _BRACKETED_DECIMALS))


def _write_abbreviation_sentence(w: _PaperWriter, para: _Paragraph) -> None:
    """Abbreviations that naive sentence splitters break at: Fig., Eq., Ref., cf., e.g., i.e."""
    rng, vocab = w.rng, w.vocab
    choice = int(rng.random() * 6)
    if choice == 0:
        f = _between(rng, 1, w.n_figures)
        para.add("As shown in ")
        para.ref(f"Fig. {f}", w._figure_ref_id(f))
        para.add(f", the {_pick(rng, vocab.measures)} increases with the number of {_pick(rng, vocab.objects)}.")
    elif choice == 1:
        para.add(
            f"The estimator follows from Eq. {_between(rng, 1, 9)} "
            f"and the bound derived in Ref. {_between(rng, 1, 30)}."
        )
    elif choice == 2:
        para.add(
            f"Several factors, e.g. {_pick(rng, vocab.objects)} and {_pick(rng, vocab.topics)}, "
            "were considered in the design."
        )
    elif choice == 3:
        para.add(
            f"The effect holds for all {_pick(rng, vocab.objects)}, "
            f"i.e. it does not depend on {_pick(rng, vocab.measures)}."
        )
    elif choice == 4:
        para.add("These trends agree with our earlier estimates (cf. ")
        t = _between(rng, 1, w.n_tables)
        para.ref(f"Table {t}", w._table_ref_id(t))
        para.add(").")
    else:
        name = _pick(rng, w.citable).names.split(" ")[0] if w.citable else "Smith"
        para.add(f"Similar values were found by {name} et al. in a larger sample of {_pick(rng, vocab.objects)}.")


_DEFECT_WRITERS = {
    "inline_citation": _write_inline_citation,
    "mid_sentence_citation": _write_mid_sentence_citation,
    "hanging_citation": _write_hanging_citation,
    "missed_citation": _write_missed_citation,
    "lowercase_start": _write_lowercase_start,
    "missing_final_period": _write_missing_final_period,
    "short_sentence": _write_short_sentence,
    "crossing_citation": _write_crossing_citation,
    "equation": _write_equation,
    "bracketed_decimal": _write_bracketed_decimal,
}
