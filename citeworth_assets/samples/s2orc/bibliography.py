"""A paper's bibliography (``bib_entries``) and figure/table captions (``ref_entries``), as S2ORC parses them.

The text cites the bibliography through :class:`~citeworth_assets.samples.s2orc.text._BibItem` items, and
points at captions as "Fig. k" / "Table k"; both are built here before the body is written.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from citeworth_assets.samples.s2orc.graph import _between, _pick, paper_id_for
from citeworth_assets.samples.s2orc.identity import _author_year_label, _capitalize, _identity, _random_author
from citeworth_assets.samples.s2orc.text import _BibItem
from citeworth_assets.samples.s2orc.vocabulary import _FIELD_VOCAB

if TYPE_CHECKING:
    from citeworth_assets.samples.s2orc.paper import _PaperWriter


def build_bibliography(w: _PaperWriter) -> tuple[dict[str, dict], list[_BibItem], list[_BibItem]]:
    """``(bib_entries, citable, linked)``: linked entries (the dump papers in ``w.targets``) mixed with
    unlinked ones and a little reference-extraction junk; ``citable`` is what the text may cite, ``linked``
    the citable entries that are dump papers."""
    rng, seed = w.rng, w.seed
    slots: list[int | None] = list(w.targets) + [None] * _between(rng, 2, 10)
    rng.shuffle(slots)
    if rng.random() < 0.1:
        slots.append(-1)  # junk entry such as "Available" with no authors
    bib_entries: dict[str, dict] = {}
    citable: list[_BibItem] = []
    linked: list[_BibItem] = []
    for n, target in enumerate(slots):
        ref_id = f"BIBREF{n}"
        if target == -1:
            title = _pick(rng, ("Available", "This article cites 57 articles, 21 of which can be accessed free at"))
            bib_entries[ref_id] = {"title": title, "authors": [], "year": "", "venue": "", "link": None}
            continue
        if target is None:
            vocab = _FIELD_VOCAB[_pick(rng, w.ident.fields)]
            authors = tuple(_random_author(rng) for _ in range(_pick(rng, (1, 2, 3, 4))))
            year: int | None = int(rng.triangular(1960, 2020.99, 2012))
            title = f"{_capitalize(_pick(rng, vocab.methods))} in {_pick(rng, vocab.topics)}"
            link = None
        else:
            target_ident = _identity(seed, target)
            authors, year, title = target_ident.authors, target_ident.year, target_ident.title
            link = paper_id_for(seed, target)
        suffix = "a" if rng.random() < 0.05 else ""
        bib_entries[ref_id] = {
            "title": title,
            # reference strings give initials only
            "authors": [{"first": a[0][:1], "middle": list(a[1]), "last": a[2], "suffix": a[3]} for a in authors],
            "year": year if year is not None else "",
            "venue": _pick(rng, ("", f"Journal of {w.ident.fields[0]}", "Proc. Natl. Acad. Sci", "Phys. Rev. Lett")),
            "link": link,
        }
        names, year_text = _author_year_label(authors, year, suffix)
        item = _BibItem(ref_id, n + 1, names, year_text, target)
        citable.append(item)
        if target is not None:
            linked.append(item)
    return bib_entries, citable, linked


def ref_entries(w: _PaperWriter) -> dict:
    """Figure and table captions; "Fig. k" in the text points at FIGREF{k-1}."""
    rng, vocab = w.rng, w.vocab
    entries = {}
    for k in range(w.n_figures):
        caption = (
            f"{_capitalize(_pick(rng, vocab.measures))} of the {_pick(rng, vocab.objects)} "
            f"obtained with {_pick(rng, vocab.methods)}."
        )
        entries[f"FIGREF{k}"] = {"text": caption, "type": "figure"}
    for k in range(w.n_tables):
        caption = f"Summary of {_pick(rng, vocab.measures)} per group of {_pick(rng, vocab.objects)}."
        entries[f"TABREF{k}"] = {"text": caption, "type": "table"}
    return entries
