"""Text as GROBID-parsed PDFs give it, which real papers showed and the plain sample lacked (issue 12).

* A citation group ``[22, 23]`` comes as one span per work, ``[22,`` and ``23]``; ``(Smith et al., 2019;
  Jones, 2020)`` as ``(Smith et al., 2019;`` and ``Jones, 2020)``; sometimes as a paper's first citation.
* Section titles keep the line break of a two-line heading (``2 Related\\nWork``).
* A parenthetical holds an acronym before the citation: ``... Solar Telescope (DKIST, [49, 56]).``
* A pointer phrase carries modifiers before its citation: ``..., see in particular [39].``
* Curly double quotes, some the wrong way round (``”Are you sure“``), which glue sentences in pysbd.

Every choice here draws from the paper's own ``grobid`` random stream (:attr:`_PaperWriter.grobid`), never
from the main one, so the rest of the paper (which papers, sections, kinds and sentences) stays as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from citeworth_assets.samples.s2orc.graph import _pick

if TYPE_CHECKING:
    from citeworth_assets.samples.s2orc.paper import _PaperWriter
    from citeworth_assets.samples.s2orc.text import _BibItem, _Paragraph

FIRST_CITATION_GROUP = 0.2  # share of papers whose first citation is a split group
SPLIT_GROUP = 0.5  # share of later group citations written as one span per work
LINE_BREAK_TITLE = 0.05  # share of two-word section titles with a line break
ACRONYM_PARENTHETICAL = 0.1  # share of numeric cited claims ending "(ACR, [n, m])."
POINTER_MODIFIERS = 0.5  # share of hanging pointer phrases with modifiers
QUOTED_PARAGRAPH = 0.05  # share of clean paragraphs framed by two quoted terms
REVERSED_QUOTES = 0.6  # of those, the share whose quotes stand the wrong way round

POINTER_PHRASES = (
    ", see in particular ",
    ", see especially ",
    " as shown by, among others, ",
    " as reported by, in particular, ",
    ", cf. e.g. ",
    ", see, for example, ",
    "; we refer to, for instance, ",
)  # (the last three the published hanging rule catches too)
QUOTED_OPENINGS = (
    "We call this quantity the {q}{measure} index{c} in what follows.",
    "The {q}{object} effect{c} is defined below.",
)
QUOTED_CLOSINGS = (
    "This is what we mean by the {q}{topic} gap{c} throughout.",
    "The term {q}{method} drift{c} is used as before.",
)


def first_citation_group(w: _PaperWriter) -> bool:
    return len(w.citable) >= 2 and w.grobid.random() < FIRST_CITATION_GROUP


def split_group(w: _PaperWriter) -> bool:
    return w.grobid.random() < SPLIT_GROUP


def _ref_id(w: _PaperWriter, item: _BibItem) -> str | None:
    return item.ref_id if w.flags["has_pdf_parsed_bib_entries"] else None


def partner(w: _PaperWriter, item: _BibItem) -> _BibItem:
    """A second work for a group starting with ``item``."""
    others = [other for other in w.citable if other is not item]
    return _pick(w.grobid, others)


def write_numeric_group(w: _PaperWriter, para: _Paragraph, items: list, first_ref_id: str | None) -> None:
    """``[22, 23]`` as GROBID gives it: the spans ``[22,`` and ``23]``, a space between."""
    items = sorted(items, key=lambda item: item.number)
    for k, item in enumerate(items):
        if k:
            para.add(" ")
        text = f"[{item.number}," if k == 0 else f"{item.number}]" if k == len(items) - 1 else f"{item.number},"
        para.cite(text, first_ref_id if k == 0 else _ref_id(w, item))


def write_author_year_group(w: _PaperWriter, para: _Paragraph, items: list, first_ref_id: str | None) -> None:
    """``(Smith et al., 2019; Jones, 2020)`` as GROBID gives it: ``(Smith et al., 2019;`` and ``Jones, 2020)``."""
    for k, item in enumerate(items):
        if k:
            para.add(" ")
        text = f"{item.names}, {item.year}"
        text = ("(" if k == 0 else "") + text + (")" if k == len(items) - 1 else ";")
        para.cite(text, first_ref_id if k == 0 else _ref_id(w, item))


def section_title(w: _PaperWriter, title: str) -> str:
    """The title with the line break of a two-line heading, now and then."""
    if " " in title and w.grobid.random() < LINE_BREAK_TITLE:
        words = title.split(" ")
        at = 1 + int(w.grobid.random() * (len(words) - 1))
        return " ".join(words[:at]) + "\n" + " ".join(words[at:])
    return title


def acronym_parenthetical(w: _PaperWriter, claim: str) -> str | None:
    """The acronym of a claim's last words, to stand before its citation in parentheses (``(ACR, [n])``), or None
    (most claims). Only numeric papers, after their first citation."""
    if (
        w.style != "numeric"
        or w.first_citation_pending
        or len(w.citable) < 2
        or w.grobid.random() >= ACRONYM_PARENTHETICAL
    ):
        return None
    words = [word for word in claim.split()[-3:] if word[:1].isalpha()]
    return "".join(word[0] for word in words).upper() if len(words) >= 2 else None


def pointer_phrase(w: _PaperWriter, phrase: str) -> str:
    """A hanging pointer phrase, now and then with modifiers between the pointing word and the citation."""
    return _pick(w.grobid, POINTER_PHRASES) if w.grobid.random() < POINTER_MODIFIERS else phrase


def quoted_frame(w: _PaperWriter) -> tuple[str, str] | None:
    """An opening and a closing sentence with quoted terms for a clean paragraph, or None (most paragraphs).

    With the quotes the wrong way round, pysbd takes everything between the two terms for a quotation.
    """
    rng = w.grobid
    if rng.random() >= QUOTED_PARAGRAPH:
        return None
    q, c = ("\u201d", "\u201c") if rng.random() < REVERSED_QUOTES else ("\u201c", "\u201d")
    vocab = w.vocab
    words = {
        "q": q,
        "c": c,
        "measure": _pick(rng, vocab.measures),
        "object": _pick(rng, vocab.objects),
        "topic": _pick(rng, vocab.topics),
        "method": _pick(rng, vocab.methods),
    }
    return _pick(rng, QUOTED_OPENINGS).format(**words), _pick(rng, QUOTED_CLOSINGS).format(**words)
