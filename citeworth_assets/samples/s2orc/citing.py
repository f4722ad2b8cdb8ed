"""Citation spans in the body: markers in the paper's style (numeric, author-year, superscript), cite-worthy
claims closed by one, and Related Work sentences that CiteSum keeps.

Each writer appends to a :class:`~citeworth_assets.samples.s2orc.text._Paragraph`, drawing from the paper's
main random stream (split-group forms from its ``grobid`` stream, :mod:`~citeworth_assets.samples.s2orc.grobid`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from citeworth_assets.samples.s2orc import grobid
from citeworth_assets.samples.s2orc.graph import _between, _pick
from citeworth_assets.samples.s2orc.identity import _abstract_parts, _capitalize
from citeworth_assets.samples.s2orc.text import _CLAIMS, _Paragraph

if TYPE_CHECKING:
    from citeworth_assets.samples.s2orc.paper import _PaperWriter


def cited_sentence(w: _PaperWriter, para: _Paragraph) -> None:
    """A cite-worthy claim with its citation at the very end, as CiteWorth keeps them (sometimes in parentheses
    after an acronym)."""
    claim = w._fill(_pick(w.rng, _CLAIMS))
    acronym = grobid.acronym_parenthetical(w, claim)
    para.add(claim + (f" ({acronym}," if acronym else ""))
    end_citation(w, para, ")" if acronym else "")


def end_citation(w: _PaperWriter, para: _Paragraph, close: str = "") -> None:
    """Close a claim with its citation, ``close`` and the period (after it, for superscript papers)."""
    rng = w.rng
    if w.style == "superscript":
        para.add(".")
        _superscript_marker(w, para)
        return
    para.add(" ")
    citation_marker(w, para)
    para.add(close + (" ." if rng.random() < 0.15 else "."))  # S2ORC often keeps a space before the period


def _superscript_marker(w: _PaperWriter, para: _Paragraph) -> None:
    """Superscript numbers come out of PDFs as bare numbers after the period: "... cancer. 1" """
    rng = w.rng
    para.add(" ")
    items = rng.sample(w.citable, min(len(w.citable), _pick(rng, (1, 1, 2))))
    for k, item in enumerate(items):
        if k:
            para.add(" ")
        last = k == len(items) - 1
        para.cite(str(item.number) if last else f"{item.number},", w._ref_id(item))
    w.first_citation_pending = False


def citation_marker(w: _PaperWriter, para: _Paragraph) -> None:
    """One citation in the paper's style; the first one of a paper is always the plain form,
    because CiteWorth decides a paper's citation format from its first cited span."""
    simple = w.first_citation_pending
    w.first_citation_pending = False
    if w.style == "numeric":
        _numeric_marker(w, para, simple)
    else:
        _author_year_marker(w, para, simple)


def _numeric_marker(w: _PaperWriter, para: _Paragraph, simple: bool) -> None:
    """``[3]``, ``[3, 5]``, ``[3,5]``, ``[3-6]``, ``[3] [5] [7]`` or ``[3]–[6]``."""
    rng, items = w.rng, w.citable
    form = (
        "single"
        if simple
        else rng.choices(
            ("single", "list", "list_nospace", "range", "adjacent", "endash_pair"), (48, 12, 8, 10, 14, 8)
        )[0]
    )
    if form == "single" or len(items) < 3:
        _one_work(w, para, simple, grobid.write_numeric_group, lambda item: f"[{item.number}]")
    elif form in ("list", "list_nospace"):
        chosen = sorted(rng.sample(items, _between(rng, 2, 3)), key=lambda i: i.number)
        sep = ", " if form == "list" else ","
        if form == "list" and grobid.split_group(w):
            grobid.write_numeric_group(w, para, chosen, w._ref_id(chosen[0]))
        else:
            para.cite("[" + sep.join(str(i.number) for i in chosen) + "]", w._ref_id(chosen[0]))
    elif form == "range":
        start, end = _range_ends(rng, items)
        para.cite(f"[{items[start].number}-{items[end].number}]", w._ref_id(items[start]))
    elif form == "adjacent":
        chosen = sorted(rng.sample(items, 3), key=lambda i: i.number)
        for k, item in enumerate(chosen):
            if k:
                para.add(" ")
            para.cite(f"[{item.number}]", w._ref_id(item))
    else:  # "[1]–[4]": a range written as two bracketed markers
        start, end = _range_ends(rng, items)
        para.cite(f"[{items[start].number}]", w._ref_id(items[start]))
        para.add("–")
        para.cite(f"[{items[end].number}]", w._ref_id(items[end]))


def _one_work(w: _PaperWriter, para: _Paragraph, simple: bool, write_group, marker) -> None:
    """One cited work; the paper's first citation group of a simple sentence is written as GROBID splits it."""
    item = _pick(w.rng, w.citable)
    if simple and grobid.first_citation_group(w):
        write_group(w, para, [item, grobid.partner(w, item)], w._ref_id(item))
    else:
        para.cite(marker(item), w._ref_id(item))


def _range_ends(rng, items) -> tuple[int, int]:
    """The first and last positions of a range of 3 to 6 consecutive works."""
    start = int(rng.random() * (len(items) - 2))
    return start, _between(rng, start + 2, min(len(items) - 1, start + 5))


def _author_year_marker(w: _PaperWriter, para: _Paragraph, simple: bool) -> None:
    """``(Smith et al., 2019)``, without the comma, several works in one span, or one span per work."""
    rng, items = w.rng, w.citable
    form = "paren" if simple else rng.choices(("paren", "paren_multi", "paren_nocomma", "split"), (45, 20, 15, 20))[0]
    if form == "paren" or len(items) < 2:
        _one_work(w, para, simple, grobid.write_author_year_group, lambda item: f"({item.names}, {item.year})")
    elif form == "paren_nocomma":
        item = _pick(rng, items)
        para.cite(f"({item.names} {item.year})", w._ref_id(item))
    elif form == "paren_multi":
        chosen = rng.sample(items, _between(rng, 2, min(3, len(items))))
        if grobid.split_group(w):
            grobid.write_author_year_group(w, para, chosen, w._ref_id(chosen[0]))
        else:
            para.cite("(" + "; ".join(f"{i.names}, {i.year}" for i in chosen) + ")", w._ref_id(chosen[0]))
    else:  # S2ORC splits "(A and B 2004; C et al. 2005a )" into one span per work
        chosen = rng.sample(items, _between(rng, 2, min(3, len(items))))
        for k, item in enumerate(chosen):
            last = k == len(chosen) - 1
            if k:
                para.add(" ")
            text = f"{item.names} {item.year}"
            if k == 0:
                text = "(" + text
            if not last:
                para.cite(text + ";", w._ref_id(item))
            elif rng.random() < 0.5:
                para.cite(text, w._ref_id(item))
                para.add(" )")
            else:
                para.cite(text + ")", w._ref_id(item))


def citesum_sentence(w: _PaperWriter, para: _Paragraph) -> None:
    """A Related Work sentence citing exactly one linked paper and reusing the wording of
    that paper's abstract, so that CiteSum's ROUGE-recall filter keeps it."""
    rng = w.rng
    item = _pick(rng, w.linked)
    clause, form = _pick(rng, _abstract_parts(w.seed, item.target).claims)
    w.first_citation_pending = False
    if form == "proposal":
        statement = f"{_capitalize(clause)} has been proposed"
    elif form == "passive":
        statement = f"In an earlier study, {clause}"
    else:
        opening = _pick(rng, ("It was reported that", "Previous work showed that", "It has been shown that"))
        statement = f"{opening} {clause}"
    if w.style == "superscript":
        para.add(statement + ". ")
        para.cite(str(item.number), w._ref_id(item))
        return
    if rng.random() < 0.5:  # end-of-sentence form: also a valid CiteWorth sentence
        para.add(statement + " ")
        para.cite(f"[{item.number}]" if w.style == "numeric" else f"({item.names}, {item.year})", w._ref_id(item))
        para.add(".")
        return
    # inline form, as Related Work sections usually read: "Smith et al. (2019) proposed ..."
    if form == "passive":
        para.add("In ")
    if w.style == "numeric":
        para.add(f"{item.names} ")
        para.cite(f"[{item.number}]", w._ref_id(item))
    else:
        para.cite(f"{item.names} ({item.year})", w._ref_id(item))
    if form == "proposal":
        para.add(f" {_pick(rng, ('proposed', 'introduced', 'described'))} {clause}.")
    elif form == "passive":
        para.add(f", {clause}.")
    else:
        para.add(f" {_pick(rng, ('showed that', 'reported that', 'found that'))} {clause}.")
