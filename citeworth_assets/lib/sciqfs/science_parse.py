"""Adapter for Science-Parse JSON, the paper's own input (§3.1, Figure 3).

Science-Parse writes one JSON object per PDF: ``title``, ``abstractText``, ``sections`` [{``heading``,
``text``}], ``references`` [{``title``, ``author``, ``venue``, ``year``, ``citeRegEx``,
``shortCiteRegEx``}] and ``referenceMentions`` [{``referenceID`` (an index into ``references``),
``context`` (the citing sentence), ``startOffset``, ``endOffset`` (the marker inside the context)}].
Its command line wraps these fields in ``{"name": ..., "id": ..., "metadata": {...}}``; both shapes are
read. The paper id is ``id`` when present, else the file name without ``.json``.

The paper text is the concatenation of the sections' ``text`` (headings are not text). Science-Parse
gives no abstract for a reference: the caller supplies them by title (``build_tables``'s
``catalogue_abstracts``), as the paper joined titles with the arXiv metadata.

A file that is not JSON, or a field of the wrong type, is counted as a :class:`ReadIssue` naming the
file; the rest of the file, and the other files, are kept.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import orjson

from citeworth_assets.lib.read_issues import IssueLog, ReadIssue
from citeworth_assets.lib.sciqfs.tables import (
    ParsedMention,
    ParsedPaper,
    ParsedReference,
)


def _string(value) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def _list(fields: dict, name: str, report) -> list:
    value = fields.get(name)
    if value is None:
        if name in fields:
            report("null_list", f"field {name!r} is null where a list is expected")
        return []
    if not isinstance(value, list):
        report("bad_type", f"field {name!r} holds a {type(value).__name__}, expected a list")
        return []
    return value


def paper_from_science_parse(record: dict, source: str, log: IssueLog, default_id: str) -> ParsedPaper:
    """A :class:`ParsedPaper` from one Science-Parse object (either shape)."""
    fields = record["metadata"] if isinstance(record.get("metadata"), dict) else record
    paper_id = str(record.get("id") or fields.get("id") or default_id)

    def report(kind: str, message: str) -> None:
        log.add(ReadIssue(source, None, None, kind, message, paper_id))

    sections = []
    for index, section in enumerate(_list(fields, "sections", report)):
        text = section.get("text") if isinstance(section, dict) else None
        if not isinstance(text, str):
            report("bad_section", f"sections[{index}] has no text; skipped")
            continue
        sections.append(text)
    references = []
    for index, entry in enumerate(_list(fields, "references", report)):
        if not isinstance(entry, dict):
            report("bad_reference", f"references[{index}] is not an object; its mentions will be dropped")
            continue
        references.append(ParsedReference(internal_id=str(index), title=_string(entry.get("title"))))
    mentions = []
    for index, mention in enumerate(_list(fields, "referenceMentions", report)):
        reference = mention.get("referenceID") if isinstance(mention, dict) else None
        context = mention.get("context") if isinstance(mention, dict) else None
        if type(reference) is not int or not isinstance(context, str):
            report("bad_mention", f"referenceMentions[{index}] lacks an integer referenceID or a context; dropped")
            continue
        mentions.append(ParsedMention(str(reference), context, mention.get("startOffset"), mention.get("endOffset")))
    return ParsedPaper(
        paper_id,
        _string(fields.get("title")),
        _string(fields.get("abstractText")),
        sections,
        references,
        mentions,
        source,
    )


def read_science_parse_folder(folder: Path, log: IssueLog) -> Iterator[ParsedPaper]:
    """Papers from every ``*.json`` file of ``folder`` (sorted by name), one file at a time."""
    for path in sorted(Path(folder).glob("*.json")):
        try:
            record = orjson.loads(path.read_bytes())
        except orjson.JSONDecodeError as error:
            log.add(ReadIssue(str(path), None, None, "bad_json", f"not a JSON document: {error}"))
            continue
        if not isinstance(record, dict):
            log.add(
                ReadIssue(str(path), None, None, "bad_json", f"holds a {type(record).__name__}, expected an object")
            )
            continue
        yield paper_from_science_parse(record, str(path), log, path.name.removesuffix(".json"))


def catalogue_abstracts(folder: Path, abstracts: Path | None, log: IssueLog) -> dict[str, str]:
    """Normalised title -> abstract for the references of a Science-Parse collection: the collection's own papers
    (a cited paper that is in the folder), then ``abstracts`` (JSON lines with ``title`` and ``abstract``, such as
    the arXiv metadata snapshot the paper joined with), which wins. Problems of that file are counted in ``log``."""
    from citeworth_assets.lib.jsonl import iter_json_lines
    from citeworth_assets.lib.sciqfs.tables import normalise_title

    found = {}
    for paper in read_science_parse_folder(folder, IssueLog()):  # its problems are reported by the build's own pass
        if normalise_title(paper.title) and paper.abstract:
            found[normalise_title(paper.title)] = paper.abstract
    if abstracts is not None:
        for line in iter_json_lines(abstracts, log):
            title, abstract = line.record.get("title"), line.record.get("abstract")
            if isinstance(title, str) and isinstance(abstract, str) and normalise_title(title) and abstract.strip():
                found[normalise_title(title)] = abstract.strip()
    return found
