"""Citation contexts in unarXive's published CSV format (:mod:`citeworth_assets.lib.context_csv`), read as a
stream, and the catalogue of their works.

A line that cannot be used (wrong field count, no cited work, no citing paper, a MAG id that is not a
number, undecodable bytes) is reported as a :class:`ReadIssue` naming the file and line, and reading goes
on. A NUL is a problem of its line only (replaced by U+FFFD and counted, the line kept), never of the
whole file; a UTF-8 byte order mark before the first line is dropped.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from citeworth_assets.lib.context_csv import FIELD_SEP, N_FIELDS, CitationContext, parse_context_line
from citeworth_assets.lib.jsonl import iter_json_lines, iter_raw_lines
from citeworth_assets.lib.read_issues import IssueLog, ReadIssue


@dataclass(frozen=True)
class WorkInfo:
    """What a catalogue says about a work: used for the citing year, titles, and the ``fos`` model."""

    year: int | None = None
    title: str | None = None
    fields_of_study: tuple[str, ...] = ()


_NEW_STYLE = re.compile(r"^(?:arXiv:)?(\d{2})(\d{2})\.\d{4,5}(?:v\d+)?$")
# unarXive names old-style papers without the slash (``hep-ph0606272``), so the slash is optional.
_OLD_STYLE = re.compile(r"^(?:arXiv:)?[a-z\-]+(?:\.[A-Z]{2})?/?(\d{2})(\d{2})\d{3}(?:v\d+)?$")


def arxiv_year(arxiv_id: str | None) -> int | None:
    """The submission year encoded in an arXiv id: ``1412.3684`` -> 2014, ``hep-th/9901001`` -> 1999.

    New-style ids (YYMM.NNNN[N]) started in April 2007; old-style ids (archive/YYMMNNN) run 1991-2007 and
    appear in unarXive without the slash (``hep-ph0606272``).
    Returns None for anything that is neither, or whose month is not 1-12.
    """
    if not arxiv_id:
        return None
    arxiv_id = arxiv_id.strip()
    for pattern in (_NEW_STYLE, _OLD_STYLE):
        found = pattern.match(arxiv_id)
        if found:
            yy, mm = int(found.group(1)), int(found.group(2))
            if not 1 <= mm <= 12:
                return None
            return 1900 + yy if yy >= 91 else 2000 + yy
    return None


def read_contexts(path: str | Path, issues: IssueLog | None = None) -> Iterator[CitationContext]:
    """Stream the contexts of one CSV file (plain or gzipped); unusable lines become issues, not exceptions."""
    path = Path(path)
    issues = issues if issues is not None else IssueLog()
    for number, offset, raw, complete in iter_raw_lines(path, issues, nul_ok=True):
        if number == 1 and offset == 0:
            raw = raw.removeprefix(codecs.BOM_UTF8)
        if not raw.strip():
            continue
        if b"\x00" in raw:
            issues.add(ReadIssue(str(path), number, offset, "nul_in_line", f"{raw.count(0)} NUL replaced by U+FFFD"))
            raw = raw.replace(b"\x00", "\ufffd".encode())
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            issues.add(ReadIssue(str(path), number, offset, "bad_encoding", str(error)))
            continue
        if not complete and line.count(FIELD_SEP) != N_FIELDS - 1:
            issues.add(ReadIssue(str(path), number, offset, "truncated_line", "the last line ends early"))
            continue
        try:
            yield parse_context_line(line, str(path), number)
        except ValueError as error:
            issues.add(ReadIssue(str(path), number, offset, "bad_context_line", str(error)))


def read_catalogue(path: str | Path, issues: IssueLog | None = None) -> dict[str, WorkInfo]:
    """A JSON-lines catalogue ``{"id", "year", "title", "fields_of_study"}`` -> work id -> :class:`WorkInfo`."""
    issues = issues if issues is not None else IssueLog()
    catalogue: dict[str, WorkInfo] = {}
    for row in iter_json_lines(path, issues):
        record = row.record
        work = record.get("id")
        year = record.get("year")
        fields = record.get("fields_of_study") or []
        if not isinstance(work, str) or not work or (year is not None and not isinstance(year, int)):
            issues.add(
                ReadIssue(str(path), row.number, row.byte_offset, "bad_catalogue_row", "need id (str), year (int)")
            )
            continue
        if not isinstance(fields, list) or not all(isinstance(f, str) for f in fields):
            issues.add(
                ReadIssue(str(path), row.number, row.byte_offset, "bad_catalogue_row", "fields_of_study: list of str")
            )
            continue
        catalogue[work] = WorkInfo(year, record.get("title"), tuple(fields))
    return catalogue


def citing_year(context: CitationContext, catalogue: Mapping[str, WorkInfo] | None = None) -> int | None:
    """The citing paper's year: from the catalogue if it knows the paper, else from its arXiv id."""
    if catalogue:
        info = catalogue.get(context.citing)
        if info is not None and info.year is not None:
            return info.year
    return arxiv_year(context.citing_arxiv)
