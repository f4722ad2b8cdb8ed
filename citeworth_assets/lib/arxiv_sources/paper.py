"""One converted paper as an unarXive 2022 record: markers placed, spans listed, entries with their ids."""

from __future__ import annotations

import re

from citeworth_assets.lib.arxiv_sources.assemble import (
    ENTRY_TOKEN,
    Builder,
    Paragraph,
    entry_hash,
    meta_text,
)
from citeworth_assets.lib.arxiv_sources.bibliography import Bibliography
from citeworth_assets.lib.arxiv_sources.citations import TOKEN
from citeworth_assets.lib.identifiers import find_arxiv_ids, find_dois

URL = re.compile(r"https?://[^\s{}]+[^\s{}.,;:)\]]")


def _with_markers(text: str, builder: Builder, bib_ids: dict[str, str]) -> tuple[str, list, list]:
    """The text with citation tokens as ``{{cite:HASH}}`` and the cite and ref spans found in it."""
    keys = builder.citations.keys

    def marker(match: re.Match) -> str:
        key = keys[int(match.group(1))]
        return "{{cite:" + (bib_ids.get(key) or entry_hash(builder.paper_id, key)) + "}}"

    text = TOKEN.sub(marker, text)
    cites = [
        {"start": m.start(), "end": m.end(), "text": m.group(0), "ref_id": m.group(0)[7:-2]}
        for m in re.finditer(r"\{\{cite:[0-9a-f]{40}\}\}", text)
    ]
    refs = [
        {"start": m.start(), "end": m.end(), "text": m.group(0), "ref_id": m.group(2)}
        for m in ENTRY_TOKEN.finditer(text)
    ]
    return text, cites, refs


def _paragraph_record(paragraph: Paragraph, builder: Builder, bib_ids: dict[str, str]) -> dict:
    text, cites, refs = _with_markers(paragraph.text, builder, bib_ids)
    return {
        "section": paragraph.section,
        "sec_number": paragraph.sec_number,
        "sec_type": paragraph.sec_type,
        "content_type": paragraph.content_type,
        "text": text,
        "cite_spans": cites,
        "ref_spans": refs,
    }


def bib_entry_record(raw: str) -> dict:
    """A bibliography entry in the unarXive 2022 shape; ids are what the string itself names (DOI, arXiv id)."""
    contained = []
    for ident in find_arxiv_ids(raw):
        start = raw.find(ident)
        contained.append({"id": ident, "text": ident, "start": start, "end": start + len(ident) if start >= 0 else -1})
    links = [{"url": m.group(0), "start": m.start(), "end": m.end()} for m in URL.finditer(raw)]
    dois = find_dois(raw)
    return {
        "bib_entry_raw": raw,
        "contained_arXiv_ids": contained,
        "contained_links": links,
        "discipline": None,
        "ids": {
            "open_alex_id": "",
            "sem_open_alex_id": "",
            "pubmed_id": "",
            "pmc_id": "",
            "doi": dois[0] if dois else "",
            "arxiv_id": "",
        },
    }


def _authors_parsed(authors: list[str]) -> list[list[str]]:
    parsed = []
    for name in authors:
        parts = name.split()
        parsed.append([parts[-1], " ".join(parts[:-1]), ""] if parts else ["", "", ""])
    return parsed


def paper_record(
    arxiv_id: str, tree: dict, builder: Builder, bibliography: Bibliography, source_name: str, source_hash: str
) -> dict:
    """The unarXive 2022 record of one converted submission."""
    meta = tree.get("meta", {})
    bib_ids = {entry.key: entry_hash(arxiv_id, entry.key) for entry in bibliography.entries}
    bib_entries = {}
    for index, entry in enumerate(bibliography.entries):
        raw = builder.bib_texts.get(index, "")
        bib_entries.setdefault(bib_ids[entry.key], bib_entry_record(TOKEN.sub("", raw).strip()))
    before = len(builder.pending)
    title = meta_text(builder, meta.get("title"))
    author = meta.get("author")
    listed = author["c"] if author and author.get("t") == "MetaList" else [author]
    authors = [" ".join(TOKEN.sub("", meta_text(builder, a, "drop")).split()) for a in listed]
    authors = [a for a in authors if a]
    # a \thanks of the title or an author that cites (funding, "extends [3]") is a footnote before the body
    front = [Paragraph(None, None, None, "footnote", n.text) for n in builder.pending[before:] if TOKEN.search(n.text)]
    abstract_text = meta_text(builder, meta.get("abstract"))
    abstract, abstract_cites, abstract_refs = _with_markers(abstract_text, builder, bib_ids)
    body = [_paragraph_record(p, builder, bib_ids) for p in front + builder.paragraphs]
    return {
        "paper_id": arxiv_id,
        "_pdf_hash": None,
        "_source_hash": source_hash,
        "_source_name": source_name,
        "metadata": {
            "id": arxiv_id,
            "submitter": None,
            "authors": ", ".join(authors) or None,
            "title": title or None,
            "comments": None,
            "journal-ref": None,
            "doi": None,
            "report-no": None,
            "categories": None,
            "license": None,
            "abstract": abstract or None,
            "versions": [],
            "update_date": None,
            "authors_parsed": _authors_parsed(authors),
        },
        "discipline": None,
        "abstract": {"section": "Abstract", "text": abstract, "cite_spans": abstract_cites, "ref_spans": abstract_refs},
        "body_text": body,
        "bib_entries": bib_entries,
        "ref_entries": builder.ref_entries,
    }
