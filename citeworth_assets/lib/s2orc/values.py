"""Per-record S2ORC rules: typed values from raw JSON values, each repair and skip reported.

These functions define what a value becomes (a number where a string belongs becomes its text, a ``null``
where a list belongs becomes an empty list and is reported, a citation span outside its paragraph is dropped
and counted). The batch builders (:mod:`.paper_columns`, :mod:`.paragraph_columns`) take well-formed columns
as they are and hand anything else to these functions, so there is one definition of every rule.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from citeworth_assets.lib.read_issues import IssueLog, ReadIssue
from citeworth_assets.lib.s2orc.schema import FLAG_FIELDS, LIST_FIELDS, NULLABLE_LISTS, PDF_FLAG_FIELDS, STRING_FIELDS


class RecordReporter:
    """Reports issues of one record, naming its file, line and paper."""

    def __init__(self, log: IssueLog, path: Path, line: int, offset: int, paper_id: str | None):
        self.log, self.path, self.line, self.offset, self.paper_id = log, str(path), line, offset, paper_id

    def __call__(self, kind: str, message: str) -> None:
        self.log.add(ReadIssue(self.path, self.line, self.offset, kind, message, self.paper_id))


class FirstOccurrences:
    """The records a reader keeps: those of ``paper_ids`` (all when None), each paper's first in the file only; a
    later record of the same paper is reported, naming the first one's line, and skipped."""

    def __init__(self, id_field: str, paper_ids: set[str] | None = None):
        self.id_field, self.paper_ids = id_field, paper_ids
        self.first_line: dict[str, int] = {}

    def keep(self, log: IssueLog, path: Path, line: int, offset: int, paper_id: str) -> bool:
        if self.paper_ids is not None and paper_id not in self.paper_ids:
            return False
        first = self.first_line.setdefault(paper_id, line)
        if first != line:
            report = RecordReporter(log, path, line, offset, paper_id)
            report("duplicate_paper_id", f"{self.id_field} seen before at line {first}; skipped")
            return False
        return True


MISSING = object()
INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1


def _text_item(value, name: str, report: RecordReporter) -> str | None:
    """One string of a list: numbers become their text, anything else is reported and left out."""
    if type(value) is str:
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    if value is not None:
        report("bad_type", f"an item of {name!r} holds a {type(value).__name__}, expected a string")
    return None


def string_value(value, name: str, report: RecordReporter) -> str | None:
    if value is None or type(value) is str:
        return value
    if value is MISSING:
        report("missing_field", f"field {name!r} is missing")
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    report("bad_type", f"field {name!r} holds a {type(value).__name__}, expected a string")
    return None


def string_list(value, name: str, report: RecordReporter, nullable: bool = False) -> list[str] | None:
    if type(value) is list:
        if all(type(item) is str for item in value):
            return value
        items = (_text_item(item, name, report) for item in value)
        return [item for item in items if item is not None]
    if value is MISSING:
        report("missing_field", f"field {name!r} is missing")
        return None if nullable else []
    if value is None:
        if not nullable:
            report("null_list", f"field {name!r} is null where a list is expected")
            return []
        return None
    report("bad_type", f"field {name!r} holds a {type(value).__name__}, expected a list")
    return []


def year_value(value, report: RecordReporter) -> int | None:
    if value is None:
        return None
    if value is MISSING:
        report("missing_field", "field 'year' is missing")
        return None
    if type(value) is int or (isinstance(value, str) and value.strip().isdigit()):
        year = int(value)
        if INT32_MIN <= year <= INT32_MAX:  # the lake column is int32: Arrow would reject the whole batch
            return year
        report("bad_type", f"field 'year' holds {value!r}, out of the int32 range")
        return None
    report("bad_type", f"field 'year' holds {str(value)[:80]!r}, expected an integer")
    return None


def well_formed_author(author) -> bool:
    return (
        type(author) is dict
        and type(author.get("first")) is str
        and type(author.get("last")) is str
        and type(author.get("suffix")) is str
        and type(author.get("middle")) is list
        and all(type(m) is str for m in author["middle"])
    )


def author_list(value, report: RecordReporter) -> list[dict]:
    if type(value) is list and all(well_formed_author(author) for author in value):
        return value  # Arrow takes the four fields by name
    if value is MISSING:
        report("missing_field", "field 'authors' is missing")
        return []
    if value is None:
        report("null_list", "field 'authors' is null where a list is expected")
        return []
    if not isinstance(value, list):
        report("bad_type", f"field 'authors' holds a {type(value).__name__}, expected a list")
        return []
    authors = []
    for author in value:
        if not isinstance(author, dict):
            report("bad_type", "an author is not an object")
            continue
        middle = author.get("middle")
        if middle is not None and not isinstance(middle, list):
            report("bad_type", f"an author's 'middle' holds a {type(middle).__name__}, expected a list")
            middle = None
        middle = [_text_item(m, "authors.middle", report) for m in middle or []]
        authors.append(
            {
                "first": _author_part(author.get("first"), "first", report),
                "middle": [m for m in middle if m is not None],
                "last": _author_part(author.get("last"), "last", report),
                "suffix": _author_part(author.get("suffix"), "suffix", report),
            }
        )
    return authors


def _author_part(value, name: str, report: RecordReporter) -> str:
    if type(value) is str:
        return value
    if value is not None:
        report("bad_type", f"an author's {name!r} holds a {type(value).__name__}, expected a string")
    return ""


def metadata_row(record: dict, report: RecordReporter) -> dict:
    """A typed ``s2orc_papers`` row (without provenance) from a raw metadata record.

    Well-formed values are taken as they are (the common case, kept fast); others are repaired and reported.
    """
    get = record.get
    row: dict = {"paper_id": report.paper_id}
    for name in STRING_FIELDS:
        row[name] = string_value(get(name, MISSING), name, report)
    row["authors"] = author_list(get("authors", MISSING), report)
    row["year"] = year_value(get("year", MISSING), report)
    for name in LIST_FIELDS:
        row[name] = string_list(get(name, MISSING), name, report, nullable=name in NULLABLE_LISTS)
    for name in FLAG_FIELDS:
        row[name] = flag_field(get(name, MISSING), name, report)
    for name in PDF_FLAG_FIELDS:
        row[name] = flag_field(get(name, MISSING), name, report, parse_expected=bool(row["has_pdf_parse"]))
    return row


FLAG_WORDS = {"true": True, "false": False}


def flag_field(value, name: str, report: RecordReporter, parse_expected: bool = True) -> bool | None:
    """A flag of the record (``MISSING`` when absent). The PDF flags are present in the release only for papers
    with a PDF parse, so their absence is reported only where ``has_pdf_parse`` is true (``parse_expected``)."""
    if value is MISSING:
        if name not in PDF_FLAG_FIELDS:
            report("missing_field", f"field {name!r} is missing")
        elif parse_expected:
            report("missing_field", f"field {name!r} is missing although has_pdf_parse is true")
        value = None
    return flag_value(value, name, report)


def flag_value(value, name: str, report: RecordReporter) -> bool | None:
    """A JSON boolean as it is; absent or null is false. ``"false"`` is not true: the words true/false and the
    numbers 0/1 are read for what they say and reported; anything else is null (the filter takes it as false)."""
    if value is None or type(value) is bool:
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in FLAG_WORDS:
        report("bad_type", f"flag {name!r} holds the string {value!r}, read as {FLAG_WORDS[value.strip().lower()]}")
        return FLAG_WORDS[value.strip().lower()]
    if type(value) is int and value in (0, 1):
        report("bad_type", f"flag {name!r} holds the number {value}, read as {bool(value)}")
        return bool(value)
    report("bad_type", f"flag {name!r} holds {str(value)[:80]!r}, expected true or false")
    return None


def _spans(
    raw, text: str, bib_links: dict | None, report: RecordReporter, index: int, kind: str
) -> tuple[list[dict], int]:
    """Valid spans of a paragraph and the number dropped for bad offsets (a hot loop, kept lean)."""
    if type(raw) is list and not raw:
        return raw, 0
    where = f"body_text[{index}].{kind}"
    if raw is None:
        report("null_list", f"{where}: spans are null where a list is expected")
        return [], 0
    if not isinstance(raw, list):
        report("bad_type", f"{where}: spans hold a {type(raw).__name__}, expected a list")
        return [], 0
    spans, invalid, length = [], 0, len(text)
    for span in raw:
        start, end = (span.get("start"), span.get("end")) if type(span) is dict else (None, None)
        if type(start) is not int or type(end) is not int or not 0 <= start <= end <= length:
            invalid += 1
            report("span_out_of_range", f"{where}: span {span!r} lies outside its paragraph of {length} chars")
            continue
        # The parsed span dict is reused: Arrow picks the schema's fields by name and ignores the rest.
        if type(span.get("text")) is not str:
            mention = span.get("mention")
            span["text"] = mention if type(mention) is str else text[start:end]
        if type(span.get("ref_id")) is not str:
            span["ref_id"] = None
        if bib_links is not None:
            span["linked_paper_id"] = bib_links.get(span["ref_id"])
        spans.append(span)
    return spans, invalid


def _bib_links(bib_entries, report: RecordReporter) -> dict:
    """Bibliography entry id -> linked S2ORC paper id (only entries that are linked)."""
    if bib_entries is None:
        report("null_list", "field 'bib_entries' is null where an object is expected")
        return {}
    if not isinstance(bib_entries, dict):
        report("bad_type", f"field 'bib_entries' holds a {type(bib_entries).__name__}, expected an object")
        return {}
    links = {}
    for ref_id, entry in bib_entries.items():
        link = entry.get("link") if isinstance(entry, dict) else None
        if link is not None:
            links[ref_id] = str(link)
    return links


MAX_PARAGRAPH_CHARS = 100_000  # longer than any real S2ORC paragraph; sentence splitting of one costs seconds


def paragraph_rows(record: dict, report: RecordReporter, max_chars: int = MAX_PARAGRAPH_CHARS) -> Iterator[dict]:
    """``s2orc_paragraphs`` rows (without provenance) for the body text of a pdf_parses record.

    A paragraph longer than ``max_chars`` is dropped and reported (``paragraph_too_long``): it is a
    parse error, and every later step would pay for it.
    """
    links = _bib_links(record.get("bib_entries"), report)
    body = record.get("body_text")
    if body is None:
        report("null_list" if "body_text" in record else "missing_field", "field 'body_text' has no paragraphs list")
        return
    if not isinstance(body, list):
        report("bad_type", f"field 'body_text' holds a {type(body).__name__}, expected a list")
        return
    for index, paragraph in enumerate(body):
        if type(paragraph) is not dict or type(paragraph.get("text")) is not str:
            report("bad_paragraph", f"body_text[{index}] has no text")
            continue
        text = paragraph["text"]
        if len(text) > max_chars:
            report(
                "paragraph_too_long",
                f"body_text[{index}] has {len(text)} chars, over the limit of {max_chars}; dropped",
            )
            continue
        section = paragraph.get("section")
        cite_spans, bad_cites = _spans(paragraph.get("cite_spans", []), text, links, report, index, "cite_spans")
        ref_spans, bad_refs = _spans(paragraph.get("ref_spans", []), text, None, report, index, "ref_spans")
        yield {
            "paper_id": report.paper_id,
            "paragraph_index": index,
            "section": section if isinstance(section, str) else "",
            "text": text,
            "cite_spans": cite_spans,
            "ref_spans": ref_spans,
            "invalid_span_count": bad_cites + bad_refs,
        }
