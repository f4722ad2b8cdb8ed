"""unarXive 2022 and later: S2ORC-like JSON lines (gzipped or plain), one paper per line.

A 2024 record gives its text as a ``sections`` object instead of the ``body_text`` list, and richer metadata; it
is told apart by its shape, record by record, and read into the same rows (:mod:`unarxive2024`).

Each record has ``paper_id`` (arXiv id), arXiv ``metadata``, ``discipline``, ``body_text`` paragraphs
whose text carries ``{{cite:HASH}}`` markers (also listed in ``cite_spans``) and ``bib_entries``
``{HASH: {bib_entry_raw, contained_arXiv_ids, ids{open_alex_id, doi, arxiv_id, ...}}}``. Lines are
streamed with :mod:`citeworth_assets.lib.jsonl` (corrupt or truncated gzip, bad JSON are reported there);
malformed fields are repaired where possible and reported; invalid UTF-8 and lone-surrogate escapes are
replaced by U+FFFD and counted, the paper kept (as the unarXive 2020 and MAG readers do). Marker positions
are taken from the text itself (the contexts are cut from it); ``cite_spans`` that disagree are counted.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from citeworth_assets.lib.arxiv import unarxive2024
from citeworth_assets.lib.identifiers import find_arxiv_ids, find_dois, normalise_arxiv_id, normalise_doi
from citeworth_assets.lib.jsonl import IssueLog, ReadIssue, iter_json_lines

RELEASE = "unarxive-2022"
MARKER = re.compile(r"\{\{cite:([^{}\s]*)\}\}")


@dataclass
class Paper:
    """A read paper: its lake rows (paper, paragraphs, references)."""

    arxiv_id: str
    row: dict
    paragraphs: list[dict]
    references: list[dict]


def _string(value, name: str, report) -> str | None:
    if value is None or isinstance(value, str):
        return value or None
    report("bad_type", f"{name} is a {type(value).__name__}, not a string")
    return str(value)


def abstract_of(record: dict, metadata: dict, report=None) -> str | None:
    """The paper's abstract, whitespace collapsed: the record's ``abstract`` paragraph (``{section, text}``, or a
    plain string), else the arXiv metadata's ``abstract``; a value of another type is reported when ``report``."""
    abstract = record.get("abstract")
    text = abstract.get("text") if isinstance(abstract, dict) else abstract
    if text is not None and not isinstance(text, str):
        if report:
            report("bad_type", f"abstract is a {type(text).__name__}, not a string")
        text = None
    if not (text and text.strip()):
        text = metadata.get("abstract") if isinstance(metadata.get("abstract"), str) else None
    return (" ".join(text.split()) or None) if text else None


def _authors(metadata: dict, report) -> list[str]:
    parsed = metadata.get("authors_parsed")
    if isinstance(parsed, list) and all(isinstance(a, list) for a in parsed):
        return [" ".join(p for p in (a[1] if len(a) > 1 else "", a[0] if a else "") if p).strip() for a in parsed]
    raw = metadata.get("authors")
    if isinstance(raw, str):
        return [a.strip() for a in re.split(r",\s*|\s+and\s+", raw) if a.strip()]
    if parsed is not None or raw is not None:
        report("bad_type", "metadata authors are neither authors_parsed lists nor a string")
    return []


def _mag_id(value, ref_id: str, report) -> str | None:
    """A shipped MAG id (a number) as a string; anything else is reported and dropped."""
    if value is None or value == "":
        return None
    text = str(value)
    if isinstance(value, bool) or not (text.isascii() and text.isdigit()):
        report("bad_mag_id", f"bib entry {ref_id} mag_id {text[:40]!r} is not a number: dropped")
        return None
    return text


def _reference(ref_id: str, entry, citing: str, provenance: dict, report) -> dict:
    if not isinstance(entry, dict):
        report("bad_type", f"bib entry {ref_id} is a {type(entry).__name__}")
        entry = {}
    raw = _string(entry.get("bib_entry_raw"), f"bib entry {ref_id} bib_entry_raw", report)
    contained = entry.get("contained_arXiv_ids") or []
    if not isinstance(contained, list):
        report("bad_type", f"bib entry {ref_id} contained_arXiv_ids is not a list")
        contained = []
    listed = [normalise_arxiv_id(c.get("id") if isinstance(c, dict) else str(c)) for c in contained]
    ids = entry.get("ids") if isinstance(entry.get("ids"), dict) else {}
    return {
        "ref_id": ref_id,
        "citing_paper_id": citing,
        "citing_mag_id": None,
        "raw_string": raw,
        "arxiv_ids": list(dict.fromkeys([*filter(None, listed), *find_arxiv_ids(raw)])),
        "dois": find_dois(raw),
        "linked_mag_id": _mag_id(ids.get("mag_id"), ref_id, report),
        "linked_openalex_id": ids.get("open_alex_id") or None,
        "linked_arxiv_id": normalise_arxiv_id(ids.get("arxiv_id") or None),
        "linked_doi": normalise_doi(ids.get("doi") or None),
        **provenance,
    }


def paper_from_record(record: dict, path: Path, line: int, offset: int, log: IssueLog) -> Paper | None:
    """The rows of one JSON record, or None when it has no paper id."""
    raw_id = record.get("paper_id")

    def report(kind: str, message: str) -> None:
        log.add(ReadIssue(str(path), line, offset, kind, message, raw_id if isinstance(raw_id, str) else None))

    if not raw_id or not isinstance(raw_id, (str, int)):
        report("missing_paper_id", "record without paper_id skipped")
        return None
    arxiv_id = str(raw_id)
    paper_id = normalise_arxiv_id(arxiv_id) or arxiv_id
    shape_2024 = unarxive2024.is_2024(record)
    release = unarxive2024.RELEASE if shape_2024 else RELEASE
    provenance = {"release": release, "source_file": path.name, "member": None, "line": line, "byte_offset": offset}
    metadata = record.get("metadata") if isinstance(record.get("metadata"), dict) else {}
    if not metadata:
        report("missing_metadata", "no arXiv metadata")
    bib = record.get("bib_entries")
    if not isinstance(bib, dict):
        if bib is not None:
            report("bad_type", "bib_entries is not an object")
        bib = {}
    references = [_reference(str(key), entry, paper_id, provenance, report) for key, entry in bib.items()]
    if shape_2024:  # cite_spans are checked per section there
        body = [
            {"section": s, "text": t} for s, t in unarxive2024.section_paragraphs(record["sections"], MARKER, report)
        ]
    else:
        body = record.get("body_text")
        if not isinstance(body, list):
            kind = "bad_type" if body is not None else "missing_body_text"
            report(kind, "neither a body_text list (unarXive 2022) nor a sections object (2024)")
            body = []
    paragraphs, n_markers, unknown = [], 0, set()
    for index, paragraph in enumerate(body):
        if not isinstance(paragraph, dict) or not isinstance(paragraph.get("text"), str):
            report("bad_paragraph", f"body_text[{index}] has no text; skipped")
            continue
        text = paragraph["text"]
        markers = [{"start": m.start(), "end": m.end(), "ref_id": m.group(1)} for m in MARKER.finditer(text)]
        spans = paragraph.get("cite_spans") if isinstance(paragraph.get("cite_spans"), list) else []
        if not shape_2024 and len(spans) != len(markers):
            report("cite_spans_mismatch", f"body_text[{index}]: {len(spans)} cite_spans, {len(markers)} markers")
        for marker in markers:
            if marker["ref_id"] not in bib:
                unknown.add(marker["ref_id"])
        n_markers += len(markers)
        paragraphs.append(
            {
                "paper_id": paper_id,
                "paragraph_index": index,
                "section": _string(paragraph.get("section"), "section", report),
                "text": text,
                "markers": markers,
                **provenance,
            }
        )
    for ref_id in sorted(unknown):
        report("marker_without_bib_entry", f"marker {ref_id} has no bib entry")
    if n_markers == 0:
        report("no_citation_markers", "paper has no {{cite:...}} marker")
    categories = metadata.get("categories")
    row = {
        "paper_id": paper_id,
        "title": " ".join(t.split()) if isinstance(t := metadata.get("title"), str) else None,
        "abstract": abstract_of(record, metadata, report),
        "authors": _authors(metadata, report),
        "categories": categories.split() if isinstance(categories, str) else [],
        "discipline": _string(record.get("discipline"), "discipline", report),
        "mag_id": None,
        "n_paragraphs": len(paragraphs),
        "n_markers": n_markers,
        "n_markers_without_reference": sum(1 for p in paragraphs for m in p["markers"] if m["ref_id"] in unknown),
        **(unarxive2024.richer_metadata(record, metadata, report) if shape_2024 else {}),
        **provenance,
    }
    return Paper(arxiv_id, row, paragraphs, references)


def iter_papers(path: str | Path, log: IssueLog) -> Iterator[Paper]:
    """Every paper of a JSON-lines file (gzipped or plain), streaming."""
    path = Path(path)
    for entry in iter_json_lines(path, log, repair=True):
        paper = paper_from_record(entry.record, path, entry.number, entry.byte_offset, log)
        if paper is not None:
            yield paper
