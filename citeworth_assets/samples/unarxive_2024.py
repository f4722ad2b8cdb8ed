"""Generated unarXive 2024 papers: the 2022 record shape with the text as a ``sections`` object and richer metadata.

:func:`to_2024` turns a 2022 record (generated, or a real one in a test) into the 2024 shape: paragraphs of one
section joined by blank lines, cite spans re-based onto the section text, ``language``, ``license`` and
``cited_by_count`` in the metadata. :func:`write_unarxive_2024` writes generated papers with the faults such files
have: a section that is null, an empty section title and one with a line break, a section whose ``cite_spans``
miss a marker, a lone surrogate escape in a text, and a ``cited_by_count`` given as text.
"""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

from citeworth_assets.samples.arxiv import (
    _bib_entries_2022,
    _body_2022,
    _hash,
    _references,
    _sentence,
    paper_body,
)
from citeworth_assets.samples.mag import Work

BREAK = "\n\n"


def to_2024(record: dict, language: str = "en", cited_by_count: int | str = 0) -> dict:
    """A 2022 record in the 2024 shape (paragraphs of a section title that recurs join its first section)."""
    sections: dict[str, dict] = {}
    for paragraph in record["body_text"]:
        section = sections.setdefault(paragraph.get("section") or "", {"text": "", "cite_spans": [], "ref_spans": []})
        if section["text"]:
            section["text"] += BREAK
        shift = len(section["text"])
        text = paragraph["text"].rstrip("\n")
        for kind in ("cite_spans", "ref_spans"):
            for span in paragraph.get(kind) or []:
                if span.get("end", 0) <= len(text):
                    section[kind].append({**span, "start": span["start"] + shift, "end": span["end"] + shift})
        section["text"] += text
    metadata = {
        **record["metadata"],
        "language": language,
        "license": record["metadata"].get("license") or "http://creativecommons.org/licenses/by/4.0/",
        "cited_by_count": cited_by_count,
    }
    shaped = {key: value for key, value in record.items() if key != "body_text"}
    return {**shaped, "metadata": metadata, "sections": sections}


def _record(index: int, works: list[Work], rng: random.Random) -> dict:
    paper_id = f"2403.{21000 + index:05d}"
    references = _references(works, rng, rng.randint(4, 9))
    hashes = {r.uuid: _hash(r.uuid) for r in references}
    body = _body_2022(paper_body(["{{cite:" + hashes[r.uuid] + "}}" for r in references], rng))
    for number, paragraph in enumerate(body):
        paragraph["section"] = ("Introduction", "Related\nWork", "", "Method")[min(number, 3)]
    record = {
        "paper_id": paper_id,
        "_pdf_hash": None,
        "_source_hash": _hash(paper_id),
        "_source_name": f"{paper_id}.gz",
        "metadata": {
            "id": paper_id,
            "title": _sentence(rng),
            "authors": "C. Author, D. Author",
            "categories": "cs.DL cs.CL",
            "authors_parsed": [["Author", "C.", ""], ["Author", "D.", ""]],
        },
        "discipline": "Computer Science",
        "abstract": {"section": "Abstract", "text": _sentence(rng)},
        "body_text": body,
        "bib_entries": _bib_entries_2022(references, hashes),
        "ref_entries": {},
    }
    return to_2024(record, "en" if index % 4 else "de", rng.randint(0, 90))


def write_unarxive_2024(path: str | Path, works: list[Work], papers: int = 6, seed: int = 24) -> dict:
    """unarXive 2024 JSON lines (gzipped) of ``papers`` generated papers with the faults of the module doc. Returns
    what a test checks: the paper ids, the citation markers written per paper, the bibliography entries."""
    rng = random.Random(seed)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    records = [_record(index, works, rng) for index in range(papers)]
    records[0]["sections"]["Appendix"] = None  # a section that lost its content
    method = records[1]["sections"].get("Method") or next(iter(records[1]["sections"].values()))
    method["cite_spans"] = method["cite_spans"][1:]  # a span missing for a marker in the text
    records[2]["metadata"]["cited_by_count"] = "17"  # a count given as text
    markers = {r["paper_id"]: sum(s["text"].count("{{cite:") for s in r["sections"].values() if s) for r in records}
    with gzip.GzipFile(path, "wb", mtime=0) as out:  # the same bytes on every run
        for number, record in enumerate(records):
            line = json.dumps(record)
            if number == 3:  # a lone surrogate escape, as texts cut inside a surrogate pair have
                line = line.replace(
                    '"abstract": {"section": "Abstract", "text": "',
                    '"abstract": {"section": "Abstract", "text": "\\ud800 ',
                    1,
                )
            out.write(line.encode() + b"\n")
    references = sum(len(r["bib_entries"]) for r in records)
    return {"papers": [r["paper_id"] for r in records], "markers": markers, "references": references}
