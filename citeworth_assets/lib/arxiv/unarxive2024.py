"""unarXive 2024: the paper's text as a ``sections`` object instead of the 2022 ``body_text`` list.

What the reader is based on (no 2024 record is in the shared samples): the issue's description of the release
(``sections``: ``{title: {text, cite_spans, ref_spans}}``, richer metadata: ``language``, ``license``,
``cited_by_count``) and public code that reads the Hugging Face copy (``ines-besrour/unarxive_2024``), which takes
``cited_by_count`` from the record's ``metadata`` beside arXiv's fields and otherwise reads the 2022 fields
(``paper_id``, ``metadata``, ``abstract``, ``bib_entries`` keyed by the ``{{cite:HASH}}`` hashes). So the metadata
is looked up in ``metadata`` first, then at the top of the record.

A section's text holds its paragraphs separated by blank lines (a single newline, such as the one before a display
formula, stays inside its paragraph, as in 2022's paragraphs); a text given as a list of strings is one paragraph per
string. Paragraphs are numbered on across sections, in section order. Marker positions come from the text itself, as
in 2022; ``cite_spans`` that disagree with the markers of their section are counted. A section that is not an
object with a text string is a counted ``bad_paragraph`` and skipped. A record is told apart from a 2022 one by its
shape alone (a ``body_text`` list, else a ``sections`` object), so both can share a file.
"""

from __future__ import annotations

import re
from collections.abc import Callable

RELEASE = "unarxive-2024"
PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n\s*")  # a blank line; a single newline (a display formula) stays inside


def is_2024(record: dict) -> bool:
    return not isinstance(record.get("body_text"), list) and isinstance(record.get("sections"), dict)


def _text(value) -> bool:
    """A section text: a string, or a list of paragraph strings."""
    return isinstance(value, str) or (isinstance(value, list) and all(isinstance(v, str) for v in value))


def section_paragraphs(
    sections: dict, marker: re.Pattern, report: Callable[[str, str], None]
) -> list[tuple[str | None, str]]:
    """``(section title, paragraph text)`` in order; a bad section is reported and skipped, and a section whose
    ``cite_spans`` do not match its ``marker`` count is reported (the markers are what is read)."""
    paragraphs = []
    for number, (title, section) in enumerate(sections.items()):
        if not isinstance(section, dict) or not _text(section.get("text")):
            report("bad_paragraph", f"sections[{number}] ({str(title)[:60]!r}) has no text; skipped")
            continue
        text = section["text"] if isinstance(section.get("text"), str) else "\n\n".join(section["text"])
        spans = section.get("cite_spans") if isinstance(section.get("cite_spans"), list) else []
        markers = len(marker.findall(text))
        if len(spans) != markers:
            report("cite_spans_mismatch", f"sections[{number}]: {len(spans)} cite_spans, {markers} markers")
        heading = " ".join(str(title).split()) or None
        paragraphs += [(heading, piece) for piece in PARAGRAPH_BREAK.split(text) if piece.strip()]
    return paragraphs


def body_text(record: dict, marker: re.Pattern) -> list:
    """The paragraphs of a record of either shape as 2022 ``body_text`` entries (``section``, ``text``), for readers
    that take that list (the arXiv ingestion reports the sections' problems; they are not reported again here)."""
    if is_2024(record):
        return [{"section": s, "text": t} for s, t in section_paragraphs(record["sections"], marker, lambda *_: None)]
    return record.get("body_text") or []


def richer_metadata(record: dict, metadata: dict, report: Callable[[str, str], None]) -> dict:
    """``language``, ``license`` and ``cited_by_count`` of a 2024 record (a value of another type is reported)."""
    found = {}
    for name, kind in (("language", str), ("license", str), ("cited_by_count", int)):
        value = metadata.get(name, record.get(name))
        if value is not None and (not isinstance(value, kind) or isinstance(value, bool)):
            report("bad_type", f"{name} is a {type(value).__name__}: left out")
            value = None
        if kind is int and value is not None and not 0 <= value < 2**63:
            report("bad_type", f"{name} {value} is out of range: left out")
            value = None
        found[name] = value or None if kind is str else value
    return found
