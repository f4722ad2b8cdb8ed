"""The one writer of unarXive's citation-context CSV, for the ``contexts`` command and the lake export alike.

A line has seven fields separated by U+241E: cited MAG id, adjacent MAG ids, citing MAG id, cited arXiv id,
adjacent arXiv ids, citing arXiv id, text. Id lists are joined by U+241F and a missing value is written ``None``
(the published script wrote ``str()`` of each value). A work with an OpenAlex id and no MAG id carries the OpenAlex
number in its MAG-id field (:func:`mag_or_openalex`), so unarXive 2022 lines stay seven fields too.

Every context is written as one line of exactly seven fields, whatever its text holds: a character that would break
the line or its fields for a reader (NUL and the other C0/C1 controls, line and paragraph separators, U+241E, in ids
U+241F too, lone surrogates) is replaced, a space for whitespace and U+FFFD otherwise, and counted in
:class:`CsvRepairs` so that the writer can warn (the published script writes text as it is, so such a paper breaks
its own file).

The reader is :mod:`citeworth_assets.lib.citrec.contexts`, whose separators these are. The export also writes the
catalogue of the works its contexts name (``{"id", "year", "title", "fields_of_study"}``, ids as
:func:`~citeworth_assets.lib.citrec.contexts.parse_context_line` reads them back from the written line), so the
citation-recommendation reader finds years, titles and fields beside the CSV.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa

from citeworth_assets.lib import lake
from citeworth_assets.lib.arxiv.duplicates import dropped_occurrences, is_dropped
from citeworth_assets.lib.arxiv.schemas import DUMP_FILE_DIMENSION
from citeworth_assets.lib.citrec.contexts import FIELD_SEP, LIST_SEP, parse_context_line
from citeworth_assets.lib.duckdb_limits import bounded
from citeworth_assets.lib.identifiers import normalise_arxiv_id, short_openalex_id

CONTEXTS_FILE, CATALOGUE_FILE = "contexts.csv", "catalogue.jsonl"
UNSAFE_TEXT = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u241e\ud800-\udfff]")
UNSAFE_ID = re.compile("[\\s\x00-\x1f\x7f-\x9f\u241e\u241f\ud800-\udfff]")


def _kind(char: str) -> str:
    if char == "\x00":
        return "nul"
    if char in (FIELD_SEP, LIST_SEP):
        return "separator"
    if "\ud800" <= char <= "\udfff":
        return "lone_surrogate"
    return "line_break" if char.isspace() else "control"


@dataclass
class CsvRepairs:
    """What the writer replaced to keep every context one seven-field line: lines touched, characters by kind."""

    written: int = 0
    lines: int = 0
    characters: dict[str, int] = field(default_factory=dict)
    first_line: int | None = None

    def clean(self, value: str, pattern: re.Pattern) -> str:
        found = pattern.findall(value)
        if not found:
            return value
        for char in found:
            kind = _kind(char)
            self.characters[kind] = self.characters.get(kind, 0) + 1
        return pattern.sub(lambda m: " " if m.group().isspace() and pattern is UNSAFE_TEXT else "\ufffd", value)

    def warning(self) -> str | None:
        """One line for the log, or None when nothing was replaced."""
        if not self.lines:
            return None
        kinds = ", ".join(f"{kind} {count}" for kind, count in sorted(self.characters.items()))
        return (
            f"{self.lines} contexts held characters that would break the CSV (first at line {self.first_line}); "
            f"replaced: {kinds}"
        )


def mag_or_openalex(mag_id, openalex_id):
    """The work number a context line's MAG-id fields carry: the MAG id, else the number of the OpenAlex work id
    (unarXive 2022 links OpenAlex; OpenAlex kept the MAG's PaperId numbering, so ``W2741809807`` is MAG paper
    2741809807, and later works continue the same space). So a 2022 context stays a seven-field line of unarXive's
    format that the citation-recommendation reader can use, with the OpenAlex id and DOI themselves in the lake."""
    if mag_id not in (None, ""):
        return mag_id
    short = short_openalex_id(openalex_id)
    return short[1:] if short and short[:1] in "Ww" and short[1:].isdigit() else None


def context_csv_line(row: dict, repairs: CsvRepairs | None = None) -> str:
    """One context (a row of ``arxiv_contexts``' schema) as a line of unarXive's CSV, newline included: ``str`` of
    each value, as published, safe whatever the values hold (replacements counted in ``repairs``)."""
    repairs = repairs if repairs is not None else CsvRepairs()
    before = sum(repairs.characters.values())
    mags, openalex = row["adjacent_mag_ids"] or [], row.get("adjacent_openalex_ids") or []
    at = lambda values, i: values[i] if i < len(values) else None  # noqa: E731
    ident = lambda value: repairs.clean(str(value), UNSAFE_ID)  # noqa: E731
    joined = lambda values: LIST_SEP.join(ident(value) for value in values or [])  # noqa: E731
    fields = [
        ident(mag_or_openalex(row["cited_mag_id"], row.get("cited_openalex_id"))),
        joined([mag_or_openalex(at(mags, i), at(openalex, i)) for i in range(max(len(mags), len(openalex)))]),
        ident(row["citing_mag_id"]),
        ident(row["cited_arxiv_id"]),
        joined(row["adjacent_arxiv_ids"]),
        ident(row["citing_paper_id"]),
        repairs.clean(str(row["text"]), UNSAFE_TEXT),
    ]
    repairs.written += 1
    if sum(repairs.characters.values()) != before:
        repairs.lines += 1
        repairs.first_line = repairs.first_line or repairs.written
    return FIELD_SEP.join(fields) + "\n"


def write_contexts_csv(rows: Iterable[dict], path: str | Path, repairs: CsvRepairs | None = None) -> int:
    """Write contexts (rows of ``arxiv_contexts``' schema) as unarXive's CSV; returns the line count. What had to be
    replaced is counted in ``repairs``."""
    return sum(1 for _ in _written_lines(rows, path, repairs if repairs is not None else CsvRepairs()))


def _written_lines(rows: Iterable[dict], path: str | Path, repairs: CsvRepairs) -> Iterator[str]:
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        for row in rows:
            line = context_csv_line(row, repairs)
            out.write(line)
            yield line


def line_work_ids(line: str) -> list[str]:
    """The work ids a written context line names, read back exactly as the citation-recommendation reader reads
    them."""
    try:
        context = parse_context_line(line)
    except ValueError:
        return []
    return [context.cited, context.citing, *context.adjacent]


def lake_contexts(lake_root: Path, dropped: set[tuple[str, str]] | None = None) -> Iterator[dict]:
    """Every dump file's contexts from the lake: partitions by key, rows in their stored order; the contexts of a
    paper's ``dropped`` occurrences (another dump file holds the kept one) are left out."""
    folder = lake_root / "arxiv_contexts"
    prefix = f"{DUMP_FILE_DIMENSION}="
    keys = sorted(p.name.removeprefix(prefix) for p in folder.glob(f"{prefix}*")) if folder.is_dir() else []
    for key in keys:
        for row in lake.iter_partition_rows(lake_root, "arxiv_contexts", key, dimension=DUMP_FILE_DIMENSION):
            if not is_dropped(dropped or set(), key, row["citing_paper_id"]):
                yield row


def export_lake_contexts(
    lake_root: Path, path: Path, repairs: CsvRepairs, dropped: set[tuple[str, str]] | None = None
) -> tuple[int, set[str]]:
    """The lake's contexts -> unarXive's CSV at ``path``; returns the line count and the work ids they name."""
    ids: set[str] = set()
    count = 0
    for line in _written_lines(lake_contexts(lake_root, dropped), path, repairs):
        ids.update(line_work_ids(line))
        count += 1
    return count, ids


def catalogue_rows(lake_root: Path, ids: set[str]) -> list[dict]:
    """What the works catalogue and the arXiv papers say about each id (MAG id or OpenAlex number, ``arXiv:<id>``)."""
    arxiv = {normalise_arxiv_id(i.removeprefix("arXiv:")): i for i in ids if i.startswith("arXiv:")}
    info: dict[str, dict] = {}
    for work in _works_naming(lake_root, ids, set(arxiv)):
        openalex_number = mag_or_openalex(None, work["openalex_id"])
        if work["mag_id"] in ids:
            found = work["mag_id"]
        else:
            found = openalex_number if openalex_number in ids else arxiv.get(work["arxiv_id"])
        if found and found not in info:
            info[found] = {"year": work["year"], "title": work["title"], "fields_of_study": work["fields"] or []}
    # titles and the discipline fallback of arXiv papers
    for paper in lake.iter_table_rows(lake_root, "arxiv_papers", ["paper_id", "mag_id", "title", "discipline"]):
        found = paper["mag_id"] if paper["mag_id"] in ids else arxiv.get(paper["paper_id"])
        if found:
            entry = info.setdefault(found, {"year": None, "title": None, "fields_of_study": []})
            entry["title"] = entry["title"] or paper["title"]
            entry["fields_of_study"] = entry["fields_of_study"] or (
                [paper["discipline"]] if paper["discipline"] else []
            )
    empty = {"year": None, "title": None, "fields_of_study": []}
    return [{"id": i, **info.get(i, empty)} for i in sorted(ids)]


def _works_naming(lake_root: Path, ids: set[str], arxiv_ids: set[str]) -> list[dict]:
    """The works whose MAG id, OpenAlex number or arXiv id may be one of ``ids``, in lake order (partition, file,
    row): DuckDB joins the ids with the catalogue, so the process holds the works named, not the catalogue. A
    superset (an OpenAlex id's trailing digits); :func:`catalogue_rows` decides exactly as over every work."""
    if not ids or not lake.has_data(lake_root, "works"):
        return []
    glob = lake.table_glob(lake_root, "works").replace("'", "''")
    with bounded() as connection:
        connection.register("named", pa.table({"id": sorted(ids)}))
        connection.register("named_arxiv", pa.table({"id": sorted(arxiv_ids)}, schema=pa.schema([("id", pa.string())])))
        result = connection.sql(
            f"""SELECT mag_id, openalex_id, arxiv_id, year, title, fields, filename, file_row_number
            FROM read_parquet('{glob}', filename = true, file_row_number = true)
            WHERE mag_id IN (SELECT id FROM named)
               OR regexp_extract(openalex_id, '(\\d+)$', 1) IN (SELECT id FROM named)
               OR arxiv_id IN (SELECT id FROM named_arxiv)"""
        ).to_arrow_table()
    rows = result.to_pylist()
    rows.sort(key=lambda r: (Path(r.pop("filename")), r.pop("file_row_number")))
    return rows


def export_contexts_and_catalogue(lake_root: Path, folder: Path, repairs: CsvRepairs) -> dict:
    """``contexts.csv`` and ``catalogue.jsonl`` into ``folder``, published together (a reader never sees one
    without the other or half a file), the contexts of repeated papers' dropped occurrences left out; returns counts
    for the asset's metadata."""
    with lake.replaced_folder(folder) as staging:
        dropped = dropped_occurrences(lake_root)
        contexts, ids = export_lake_contexts(lake_root, staging / CONTEXTS_FILE, repairs, dropped)
        works = catalogue_rows(lake_root, ids)
        with open(staging / CATALOGUE_FILE, "w", encoding="utf-8", newline="\n") as out:
            out.writelines(json.dumps(work, ensure_ascii=False) + "\n" for work in works)
    return {
        "contexts": contexts,
        "contexts_repaired": repairs.lines,
        "repeated_papers_left_out": len(dropped),
        "catalogue_works": len(works),
        "with_year": sum(work["year"] is not None for work in works),
        "with_fields": sum(bool(work["fields_of_study"]) for work in works),
    }
