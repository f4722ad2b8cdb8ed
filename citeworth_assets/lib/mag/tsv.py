"""The MAG's headerless tab-separated dump files, read by column position.

Column orders are Microsoft's documented ones for the last release (2021); older releases have fewer
trailing columns, so each file names the columns a row must have (``required``) and the rest are
``None`` when absent. There is no quoting; a line with too few columns, a bad id or invalid UTF-8 is a
counted :class:`ReadIssue` naming the file and line, and reading goes on; a bad value in an integer column that is
not an id (a year ``19x9``) costs that field only. Files may be gzipped.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from citeworth_assets.lib.dump_root import followed_out
from citeworth_assets.lib.jsonl import IssueLog, ReadIssue, iter_raw_lines


@dataclass(frozen=True)
class MagFile:
    """A dump file's columns (in order), how many are required, and which hold integers (and of those, which are
    stored as 32-bit: the year)."""

    name: str
    columns: tuple[str, ...]
    required: int
    integers: tuple[str, ...] = ()
    int32: tuple[str, ...] = ()


# the integers that say which row it is: a bad one loses the line; a bad value in any other integer column
# (year, citation count, author position, level) is a ``bad_type`` issue that costs that field only
ID_COLUMNS = frozenset({"PaperId", "AuthorId", "FieldOfStudyId", "PaperReferenceId"})
INT32_MAX, INT64_MAX = 2**31 - 1, 2**63 - 1


PAPERS = MagFile(
    "Papers.txt",
    (
        "PaperId",
        "Rank",
        "Doi",
        "DocType",
        "PaperTitle",
        "OriginalTitle",
        "BookTitle",
        "Year",
        "Date",
        "OnlineDate",
        "Publisher",
        "JournalId",
        "ConferenceSeriesId",
        "ConferenceInstanceId",
        "Volume",
        "Issue",
        "FirstPage",
        "LastPage",
        "ReferenceCount",
        "CitationCount",
        "EstimatedCitation",
        "OriginalVenue",
        "FamilyId",
        "FamilyRank",
        "DocSubTypes",
        "CreatedDate",
    ),
    required=8,  # up to Year: what the catalogue needs; CitationCount is read when present
    integers=("PaperId", "Year", "CitationCount"),
    int32=("Year",),
)
AUTHORS = MagFile(
    "Authors.txt",
    (
        "AuthorId",
        "Rank",
        "NormalizedName",
        "DisplayName",
        "LastKnownAffiliationId",
        "PaperCount",
        "PaperFamilyCount",
        "CitationCount",
        "CreatedDate",
    ),
    required=4,
    integers=("AuthorId",),
)
PAPER_AUTHOR_AFFILIATIONS = MagFile(
    "PaperAuthorAffiliations.txt",
    ("PaperId", "AuthorId", "AffiliationId", "AuthorSequenceNumber", "OriginalAuthor", "OriginalAffiliation"),
    required=4,
    integers=("PaperId", "AuthorId", "AuthorSequenceNumber"),
)
FIELDS_OF_STUDY = MagFile(
    "FieldsOfStudy.txt",
    (
        "FieldOfStudyId",
        "Rank",
        "NormalizedName",
        "DisplayName",
        "MainType",
        "Level",
        "PaperCount",
        "PaperFamilyCount",
        "CitationCount",
        "CreatedDate",
    ),
    required=6,
    integers=("FieldOfStudyId", "Level"),
)
PAPER_FIELDS_OF_STUDY = MagFile(
    "PaperFieldsOfStudy.txt", ("PaperId", "FieldOfStudyId", "Score"), required=2, integers=("PaperId", "FieldOfStudyId")
)
PAPER_REFERENCES = MagFile(
    "PaperReferences.txt", ("PaperId", "PaperReferenceId"), required=2, integers=("PaperId", "PaperReferenceId")
)
MAG_FILES = (PAPERS, AUTHORS, PAPER_AUTHOR_AFFILIATIONS, FIELDS_OF_STUDY, PAPER_FIELDS_OF_STUDY, PAPER_REFERENCES)


def read_mag_file(path: str | Path, spec: MagFile, log: IssueLog) -> Iterator[dict]:
    """Rows of one MAG file as ``{column: value}`` (with ``_line``), streaming; bad lines are logged and skipped.
    A file that is a symlink leading out of its folder is reported and not read (:func:`followed_out`)."""
    path = Path(path)
    if followed_out(path, path.parent, None, log):
        return
    width = len(spec.columns)
    for number, offset, raw, complete in iter_raw_lines(path, log):
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        if not raw:
            continue
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            line = raw.decode("utf-8", errors="replace")
            log.add(ReadIssue(str(path), number, offset, "invalid_utf8", f"replaced by U+FFFD: {error}"))
        cells = line.split("\t")
        if len(cells) < spec.required:
            kind = "too_few_columns" if complete else "truncated_line"
            log.add(ReadIssue(str(path), number, offset, kind, f"{len(cells)} columns, {spec.required} required"))
            continue
        if len(cells) > width:
            log.add(ReadIssue(str(path), number, offset, "too_many_columns", f"{len(cells)} columns, {width} known"))
            cells = cells[:width]
        row = dict(zip(spec.columns, (cell if cell != "" else None for cell in cells)))
        bad = None
        for name in spec.integers:
            value = row.get(name)
            if value is None:
                continue
            limit = INT32_MAX if name in spec.int32 else INT64_MAX
            try:
                row[name] = int(value)
                if not -limit - 1 <= row[name] <= limit:
                    raise ValueError("out of range")
            except ValueError:
                if name in ID_COLUMNS:
                    bad = name
                    break
                message = f"{name} {value[:40]!r} is not an integer in range: field left out"
                log.add(ReadIssue(str(path), number, offset, "bad_type", message))
                row[name] = None
        if bad:
            log.add(ReadIssue(str(path), number, offset, "bad_value", f"{bad} {row[bad]!r} is not an integer"))
            continue
        row["_line"] = number
        yield row
