"""A 2020 pdf parse laid out as S2AG text with annotation spans (shared by the ``s2orc`` and ``s2orc_v2`` writers).

The text follows the real ``s2orc`` files: blocks separated by a blank line (``"\\n\\n"``), a section header before
the first paragraph of its section, display formulas and figure/table blocks outside the paragraphs, the
bibliography last. Spans are ``{attributes?, end, start}`` over code points, in the key order of the real files.

Kinds are named as in ``s2orc_v2`` (snake_case); a :class:`Spans` renames them to the ``s2orc`` names, or drops
a kind the format lacks (``sentence``, ``bib_date`` in ``s2orc``).
"""

from __future__ import annotations

import random
import re

S2ORC_NAMES = {
    "title": "title",
    "venue": "venue",
    "author": "author",
    "author_first_name": "authorfirstname",
    "author_last_name": "authorlastname",
    "author_affiliation": "authoraffiliation",
    "abstract": "abstract",
    "paragraph": "paragraph",
    "section_header": "sectionheader",
    "sentence": None,
    "bib_ref": "bibref",
    "figure_ref": "figureref",
    "table_ref": "tableref",
    "formula": "formula",
    "figure": "figure",
    "figure_caption": "figurecaption",
    "table": "table",
    "table_caption": None,  # s2orc gives a table's caption as a figurecaption (the table is a figure of type table)
    "bib_entry": "bibentry",
    "bib_title": "bibtitle",
    "bib_author": "bibauthor",
    "bib_author_first_name": "bibauthorfirstname",
    "bib_author_last_name": "bibauthorlastname",
    "bib_venue": "bibvenue",
    "bib_date": None,
}
V2_NAMES = {name: name for name in S2ORC_NAMES}
BLOCK = "\n\n"  # between blocks (headers, paragraphs, formulas, figures, entries), as in the real files
LEADING_NUMBER = re.compile(r"^(?:\d+(?:\.\d+)*\.?|[IVX]+\.)\s")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\[(\u201c\u201d])")
FORMULAS = (
    "y_i = \u03b2_0 + \u03b2_1 x_i + \u03b5_i (1)",
    "L(\u03b8) = \u2211_{i=1}^{n} log p(x_i | \u03b8) (2)",
    "R = 1 \u2212 exp(\u2212\u03bb t) (3)",
)
TABLE_ROWS = ("Group n Mean SD", "A {a} {m}.{d} 0.{s}", "B {b} {m}.{s} 0.{d}")


class Spans:
    """A text under construction and its spans by kind (in the target format's names)."""

    def __init__(self, names: dict[str, str | None]) -> None:
        self.names = names
        self.parts: list[str] = []
        self.pos = 0
        self.kinds: dict[str, list[dict]] = {}

    def add(self, text: str) -> int:
        """Append ``text``; returns where it starts."""
        start = self.pos
        self.parts.append(text)
        self.pos += len(text)
        return start

    def mark(self, kind: str, start: int, end: int, **attributes) -> None:
        name = self.names[kind]
        if name is None:
            return
        span = {"attributes": attributes, "end": end, "start": start} if attributes else {"end": end, "start": start}
        self.kinds.setdefault(name, []).append(span)

    def text(self) -> str:
        return "".join(self.parts)


def front(out: Spans, meta: dict, abstract_paragraphs: list[dict], rng: random.Random) -> None:
    """Title, venue line, author blocks and the parsed abstract, as the top of an ``s2orc`` text."""
    out.add("\n")
    start = out.add(meta["title"] or "")
    out.mark("title", start, out.pos)
    out.add("\n")
    venue = meta.get("journal") or meta.get("venue")
    if venue:
        start = out.add(venue)
        out.mark("venue", start, out.pos)
        out.add(f" {meta['year']}" if meta.get("year") else "")
    out.add(BLOCK)
    for author in meta.get("authors") or []:
        start = out.add(" ".join(name for name in (author["first"], *author["middle"]) if name))
        if author["first"]:
            out.mark("author_first_name", start, start + len(author["first"]))
            out.add(" ")
        last = out.add(author["last"])
        out.mark("author_last_name", last, out.pos)
        out.add(" \n")
        if rng.random() < 0.6:
            affiliation = out.add(f"Department of {rng.choice(('Science', 'Medicine', 'Engineering'))}\nUniversity")
            out.mark("author_affiliation", affiliation, out.pos)
            out.add("\n")
        out.mark("author", start, out.pos)
        out.add("\n")
    if abstract_paragraphs:
        start = out.add(BLOCK.join(paragraph["text"] for paragraph in abstract_paragraphs))
        out.mark("abstract", start, out.pos)
        out.add(BLOCK)


def _header(out: Spans, section: str, number: int | None) -> None:
    """A section header; a title without its own number gets ``n`` when the paper numbers its sections
    (GROBID moves the number into ``n``), so the span's text is always the 2020 section string."""
    start = out.add(section)
    if number is not None and not LEADING_NUMBER.match(section):
        out.mark("section_header", start, out.pos, n=str(number))
    else:
        out.mark("section_header", start, out.pos)
    out.add(BLOCK)


def _bib_id(ref_id: str | None) -> str | None:
    """``BIBREF7`` -> ``b7``, ``FIGREF0`` -> ``fig_0``, ``TABREF1`` -> ``tab_1`` (GROBID's ids in S2AG)."""
    if ref_id is None:
        return None
    for prefix, short in (("BIBREF", "b"), ("FIGREF", "fig_"), ("TABREF", "tab_")):
        if ref_id.startswith(prefix):
            return short + ref_id[len(prefix) :]
    return ref_id


def body(out: Spans, parse: dict, rng: random.Random) -> None:
    """Headers, paragraphs (with sentences, citation and figure/table reference spans) and display formulas.

    A header is written where the section changes; the nearest header before a paragraph is its section. A
    paragraph whose 2020 section is empty after a titled one gets a header holding only a space (an empty heading:
    its section, stripped, is ``""``; a zero-width span would be no span at all).
    """
    numbered = rng.random() < 0.5
    previous, number, formulas = "", 0, 0
    for paragraph in parse["body_text"]:
        section = paragraph["section"]
        if section != previous:
            if section:
                number += 1
                _header(out, section, number if numbered else None)
            else:  # an empty heading: a header span holding only a space
                blank = out.add(" ")
                out.mark("section_header", blank, out.pos)
                out.add(BLOCK)
            previous = section
        text = paragraph["text"]
        start = out.add(text)
        out.mark("paragraph", start, out.pos)
        at = 0
        for piece in SENTENCE_END.split(text):
            at = text.index(piece, at)
            out.mark("sentence", start + at, start + at + len(piece))
            at += len(piece)
        for span in paragraph["cite_spans"]:
            ref_id = _bib_id(span["ref_id"])
            attributes = {"ref_id": ref_id} if ref_id else {}
            out.mark("bib_ref", start + span["start"], start + span["end"], **attributes)
        for span in paragraph["ref_spans"]:
            kind = "table_ref" if span["text"].startswith("Table") else "figure_ref"
            ref_id = _bib_id(span["ref_id"])
            attributes = {"ref_id": ref_id} if ref_id else {}
            out.mark(kind, start + span["start"], start + span["end"], **attributes)
        out.add(BLOCK)
        if rng.random() < 0.06:  # a display formula between paragraphs: in no paragraph, as GROBID gives it
            formula = out.add(FORMULAS[formulas % len(FORMULAS)])
            out.mark("formula", formula, out.pos, id=f"formula_{formulas}")
            out.add(BLOCK)
            formulas += 1


def figures(out: Spans, parse: dict, rng: random.Random, v2: bool) -> None:
    """Figure and table blocks (``Figure 1 :\\n1Caption``), as GROBID appends them after the body.

    ``s2orc`` lists tables among the ``figure`` spans (``type: table``), their captions as ``figurecaption`` and
    their cells as ``table``; ``s2orc_v2`` gives tables their own ``table`` and ``table_caption`` spans.
    """
    for ref_id, entry in parse["ref_entries"].items():
        number = int(ref_id[6:])
        short = _bib_id(ref_id)
        is_table = entry["type"] == "table"
        start = out.add(f"{'Table' if is_table else 'Figure'} {number + 1} :\n{number + 1}")
        caption = out.add(entry["text"])
        caption_end = out.pos
        cells = 0
        if is_table:
            out.add(BLOCK)
            values = {key: rng.randint(10, 99) for key in ("a", "b", "m", "d", "s")}
            cells = out.add("\n".join(row.format(**values) for row in TABLE_ROWS))
        if not is_table:
            out.mark("figure", start, out.pos, id=short)
            out.mark("figure_caption", caption, caption_end)
        elif v2:
            out.mark("table", start, out.pos, id=short)
            out.mark("table_caption", caption, caption_end)
        else:
            out.mark("figure", start, caption_end, id=short, type="table")
            out.mark("figure_caption", caption, caption_end)
            out.mark("table", cells, out.pos)
        out.add(BLOCK)


def bibliography(out: Spans, parse: dict) -> None:
    """One entry per 2020 bib entry: ``Title. F M Last, F Last, Venue. Year``; ``matched_paper_id`` is the entry's
    ``link`` (absent where it links nowhere, as in the real files)."""
    for ref_id, entry in parse["bib_entries"].items():
        start = out.pos
        title = out.add(entry["title"])
        out.mark("bib_title", title, out.pos)
        out.add(". ")
        for author in entry["authors"]:
            begin = out.pos
            for name in (author["first"], *author["middle"]):
                if not name:  # reference strings often lose the first name
                    continue
                first = out.add(name)
                out.mark("bib_author_first_name", first, out.pos)
                out.add(" ")
            last = out.add(author["last"])
            out.mark("bib_author_last_name", last, out.pos)
            out.add(", ")
            out.mark("bib_author", begin, out.pos)
        if entry["venue"]:
            venue = out.add(entry["venue"])
            out.mark("bib_venue", venue, out.pos)
            out.add(". ")
        if entry["year"] != "":
            year = out.add(str(entry["year"]))
            out.mark("bib_date", year, out.pos)
        if entry["link"] is None:
            out.mark("bib_entry", start, out.pos, id=_bib_id(ref_id))
        else:
            out.mark("bib_entry", start, out.pos, id=_bib_id(ref_id), matched_paper_id=int(entry["link"]))
        out.add(BLOCK)
