"""S2ORC 20200705v1 records: the lake schemas and streaming readers for ``metadata`` and ``pdf_parses`` shards.

The readers turn raw records into typed rows with provenance. They repair what can be repaired and
report it (a ``null`` where a list belongs becomes an empty list; a citation span whose offsets fall
outside its paragraph is dropped and counted on the paragraph), and skip only what cannot be read at
all (a line that is not JSON, a record without ``paper_id``). Nothing is silently lost: every repair
and every skip is a :class:`~citeworth_assets.lib.jsonl.ReadIssue`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import groupby
from pathlib import Path

import pyarrow as pa

from citeworth_assets.lib.jsonl import IssueLog, ReadIssue, iter_json_lines

AUTHOR = pa.struct(
    [("first", pa.string()), ("middle", pa.list_(pa.string())), ("last", pa.string()), ("suffix", pa.string())]
)
CITATION_SPAN = pa.struct(
    [
        ("start", pa.int32()),
        ("end", pa.int32()),
        ("text", pa.string()),
        ("ref_id", pa.string()),
        ("linked_paper_id", pa.string()),
    ]
)
REFERENCE_SPAN = pa.struct([("start", pa.int32()), ("end", pa.int32()), ("text", pa.string()), ("ref_id", pa.string())])
PROVENANCE = [
    ("release", pa.string()),
    ("shard", pa.string()),
    ("source_file", pa.string()),
    ("line", pa.int64()),
    ("byte_offset", pa.int64()),
]

STRING_FIELDS = (
    "title",
    "abstract",
    "arxiv_id",
    "acl_id",
    "pmc_id",
    "pubmed_id",
    "doi",
    "venue",
    "journal",
    "mag_id",
    "s2_url",
)
LIST_FIELDS = ("mag_field_of_study", "outbound_citations", "inbound_citations")
FLAG_FIELDS = ("has_outbound_citations", "has_inbound_citations", "has_pdf_parse")
# Present in the release only for papers that have a PDF parse; absent means false.
PDF_FLAG_FIELDS = (
    "has_pdf_body_text",
    "has_pdf_parsed_abstract",
    "has_pdf_parsed_body_text",
    "has_pdf_parsed_bib_entries",
    "has_pdf_parsed_ref_entries",
)
# mag_field_of_study is null for papers without MAG categories in the real release; not a defect.
NULLABLE_LISTS = ("mag_field_of_study",)

PAPER_SCHEMA = pa.schema(
    [
        ("paper_id", pa.string()),
        ("title", pa.string()),
        ("authors", pa.list_(AUTHOR)),
        ("abstract", pa.string()),
        ("year", pa.int32()),
        *[(name, pa.string()) for name in STRING_FIELDS[2:10]],
        ("mag_field_of_study", pa.list_(pa.string())),
        ("outbound_citations", pa.list_(pa.string())),
        ("inbound_citations", pa.list_(pa.string())),
        *[(name, pa.bool_()) for name in FLAG_FIELDS + PDF_FLAG_FIELDS],
        ("s2_url", pa.string()),
        *PROVENANCE,
    ]
)

PARAGRAPH_SCHEMA = pa.schema(
    [
        ("paper_id", pa.string()),
        ("paragraph_index", pa.int32()),
        ("section", pa.string()),
        ("text", pa.string()),
        ("cite_spans", pa.list_(CITATION_SPAN)),
        ("ref_spans", pa.list_(REFERENCE_SPAN)),
        ("invalid_span_count", pa.int32()),
        *PROVENANCE,
    ]
)

READ_ISSUE_SCHEMA = pa.schema(
    [
        ("release", pa.string()),
        ("shard", pa.string()),
        ("file", pa.string()),
        ("line", pa.int64()),
        ("byte_offset", pa.int64()),
        ("kind", pa.string()),
        ("message", pa.string()),
        ("paper_id", pa.string()),
    ]
)


@dataclass(frozen=True)
class ShardSource:
    """Where rows come from: the release, the shard's partition key and the file read."""

    release: str
    shard: str
    path: Path

    def provenance(self, line: int, byte_offset: int) -> dict:
        return {
            "release": self.release,
            "shard": self.shard,
            "source_file": self.path.name,
            "line": line,
            "byte_offset": byte_offset,
        }

    def issue_row(self, issue: ReadIssue) -> dict:
        return {"release": self.release, "shard": self.shard, **vars(issue), "file": Path(issue.file).name}


class RecordReporter:
    """Reports issues of one record, naming its file, line and paper."""

    def __init__(self, log: IssueLog, path: Path, line: int, offset: int, paper_id: str | None):
        self.log, self.path, self.line, self.offset, self.paper_id = log, str(path), line, offset, paper_id

    def __call__(self, kind: str, message: str) -> None:
        self.log.add(ReadIssue(self.path, self.line, self.offset, kind, message, self.paper_id))


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


def _text(value, name: str, report: RecordReporter) -> str | None:
    if value is None or type(value) is str:
        return value
    if value is MISSING:
        report("missing_field", f"field {name!r} is missing")
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    report("bad_type", f"field {name!r} holds a {type(value).__name__}, expected a string")
    return None


def _text_list(value, name: str, report: RecordReporter, nullable: bool = False) -> list[str] | None:
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


def _year(value, report: RecordReporter) -> int | None:
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


def _well_formed_author(author) -> bool:
    return (
        type(author) is dict
        and type(author.get("first")) is str
        and type(author.get("last")) is str
        and type(author.get("suffix")) is str
        and type(author.get("middle")) is list
        and all(type(m) is str for m in author["middle"])
    )


def _authors(value, report: RecordReporter) -> list[dict]:
    if type(value) is list and all(_well_formed_author(author) for author in value):
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
        row[name] = _text(get(name, MISSING), name, report)
    row["authors"] = _authors(get("authors", MISSING), report)
    row["year"] = _year(get("year", MISSING), report)
    for name in LIST_FIELDS:
        row[name] = _text_list(get(name, MISSING), name, report, nullable=name in NULLABLE_LISTS)
    for name in FLAG_FIELDS:
        if name not in record:
            report("missing_field", f"field {name!r} is missing")
        row[name] = _flag(get(name), name, report)
    for name in PDF_FLAG_FIELDS:
        if name not in record and row["has_pdf_parse"]:
            report("missing_field", f"field {name!r} is missing although has_pdf_parse is true")
        row[name] = _flag(get(name), name, report)
    return row


FLAG_WORDS = {"true": True, "false": False}


def _flag(value, name: str, report: RecordReporter) -> bool | None:
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


LEADING_PAPER_ID = re.compile(rb'^\s*\{\s*"paper_id"\s*:\s*"([^"\\]*)"')


def _records(source: ShardSource, log: IssueLog, paper_ids: set[str] | None = None) -> Iterator[tuple]:
    """(line, reporter) of each record with a usable paper_id; a paper_id seen before in the file is reported and
    skipped, so that the first occurrence wins (across shards, ``s2orc_duplicate_papers`` reports them)."""
    first_line: dict[str, int] = {}

    def wanted(line: bytes) -> bool:
        # Records start with their paper_id in the release: skip others without parsing them.
        match = LEADING_PAPER_ID.match(line)
        if match is None:
            return True
        try:
            return match.group(1).decode() in paper_ids
        except UnicodeDecodeError:
            return True  # let the JSON parser report the line as invalid UTF-8

    for line in iter_json_lines(source.path, log, wanted if paper_ids is not None else None):
        paper_id = line.record.get("paper_id")
        report = RecordReporter(log, source.path, line.number, line.byte_offset, None)
        if paper_id in (None, ""):
            report("missing_field", "record has no paper_id; skipped")
            continue
        if type(paper_id) is not str and (type(paper_id) is not int):
            report("bad_type", f"paper_id holds a {type(paper_id).__name__}, expected a string; skipped")
            continue
        report.paper_id = str(paper_id)
        if paper_ids is None or report.paper_id in paper_ids:
            if report.paper_id in first_line:
                report("duplicate_paper_id", f"paper_id seen before at line {first_line[report.paper_id]}; skipped")
                continue
            first_line[report.paper_id] = line.number
            yield line, report


def read_metadata(source: ShardSource, log: IssueLog) -> Iterator[dict]:
    """Stream typed paper rows with provenance from a metadata shard."""
    for line, report in _records(source, log):
        row = metadata_row(line.record, report)
        row.update(source.provenance(line.number, line.byte_offset))
        yield row


def read_paragraphs(
    source: ShardSource,
    log: IssueLog,
    paper_ids: set[str] | None = None,
    max_paragraph_chars: int = MAX_PARAGRAPH_CHARS,
) -> Iterator[dict]:
    """Stream body-text paragraph rows with provenance from a pdf_parses shard, for ``paper_ids`` if given."""
    for line, report in _records(source, log, paper_ids):
        provenance = source.provenance(line.number, line.byte_offset)
        for row in paragraph_rows(line.record, report, max_paragraph_chars):
            row.update(provenance)
            yield row


@dataclass
class PaperInput:
    paper_id: str
    paragraphs: list[dict]  # s2orc_paragraphs rows: paragraph_index, section, text, cite_spans, invalid_span_count
    mag_field_of_study: list[str] | None = None
    provenance: dict = field(default_factory=dict)  # release, shard, source_file, line, byte_offset of the parse


def papers_from_paragraph_rows(rows: Iterable[dict], fields: dict[str, list | None]) -> Iterator[PaperInput]:
    """Group ``s2orc_paragraphs`` rows (in file order) into papers, with their fields of study and provenance."""
    for paper_id, group in groupby(rows, key=lambda row: row["paper_id"]):
        paragraphs = list(group)
        first = paragraphs[0]
        provenance = {name: first[name] for name, _ in PROVENANCE}
        yield PaperInput(paper_id, paragraphs, fields.get(paper_id), provenance)
