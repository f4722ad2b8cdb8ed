"""The texts of an S2AG full-text record and its annotation spans, in either format (``s2orc``, ``s2orc_v2``).

``s2orc`` holds everything in ``content.text`` with one-word annotation keys; ``s2orc_v2`` (no real record is
public: written from the published description) has ``body`` and ``bibliography`` apart, keys in snake_case. The
rest of the reader names annotation kinds by their role (``cite``, ``entry``, ...) and looks them up here.
"""

from __future__ import annotations

from dataclasses import dataclass

from citeworth_assets.lib.s2ag.annotations import RecordTally, Span, parse_spans

S2ORC_KEYS = {
    "paragraph": "paragraph",
    "section": "sectionheader",
    "cite": "bibref",
    "entry": "bibentry",
    "entry_title": "bibtitle",
    "entry_author": "bibauthor",
    "entry_venue": "bibvenue",
    "entry_date": "bibdate",
    "figure_ref": "figureref",
    "table_ref": "tableref",
    "figure": "figure",
    "table": "table",
    "formula": "formula",
    "abstract": "abstract",
    "title": "title",
}
V2_KEYS = {
    **{name: name for name in ("paragraph", "figure", "table", "formula", "abstract", "title")},
    "section": "section_header",
    "cite": "bib_ref",
    "entry": "bib_entry",
    "entry_title": "bib_title",
    "entry_author": "bib_author",
    "entry_venue": "bib_venue",
    "entry_date": "bib_date",
    "figure_ref": "figure_ref",
    "table_ref": "table_ref",
}
EXPECTED = ("paragraph", "cite", "entry")  # a null of these is worth a word; other kinds are null when absent
WITH_ATTRIBUTES = ("cite", "entry", "figure_ref", "table_ref")  # the kinds whose attributes are read
ID_NAMES = ("arxiv", "acl", "pubmed", "pubmedcentral", "doi", "mag")  # the full text's external ids kept


@dataclass
class Texts:
    """The body text and the bibliography text (the same string for ``s2orc``) with their raw annotations."""

    body: str
    body_annotations: dict
    bibliography: str
    bibliography_annotations: dict
    keys: dict


def as_dict(value) -> dict:
    return value if type(value) is dict else {}


def record_texts(record: dict, tally: RecordTally) -> Texts | None:
    """The texts of a record of either format; None (reported) when it has no text."""
    if "content" in record:
        content = as_dict(record["content"])
        text = content.get("text")
        annotations = as_dict(content.get("annotations"))
        if type(text) is not str:
            tally.add("missing_text", "content.text")
            return None
        return Texts(text, annotations, text, annotations, S2ORC_KEYS)
    body, bibliography = as_dict(record.get("body")), as_dict(record.get("bibliography"))
    text = body.get("text")
    if type(text) is not str:
        tally.add("missing_text", "body.text")
        return None
    bib_text = bibliography.get("text")
    bib_text = bib_text if type(bib_text) is str else ""
    return Texts(text, as_dict(body.get("annotations")), bib_text, as_dict(bibliography.get("annotations")), V2_KEYS)


def spans_of(texts: Texts, kind: str, tally: RecordTally, bibliography: bool = False) -> list[Span]:
    name = texts.keys[kind]
    text, annotations = (
        (texts.bibliography, texts.bibliography_annotations)
        if bibliography
        else (
            texts.body,
            texts.body_annotations,
        )
    )
    return parse_spans(annotations.get(name), name, len(text), tally, kind in EXPECTED, kind in WITH_ATTRIBUTES)
