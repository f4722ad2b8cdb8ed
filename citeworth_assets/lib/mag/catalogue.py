"""The works catalogue: MAG papers and OpenAlex works in one row shape, and their citation edges.

MAG rows are assembled from Papers, PaperAuthorAffiliations + Authors (names in author order) and
PaperFieldsOfStudy + FieldsOfStudy (level-0 fields only). :func:`mag_works` joins them in memory, which
suits samples and single partitions; for a whole dump the same join runs in DuckDB over the lake tables
that the per-file readers fill. OpenAlex works carry all of it in one record.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from citeworth_assets.lib.fields import FIELD_BY_KEY, field_key
from citeworth_assets.lib.identifiers import find_arxiv_ids, normalise_doi, short_openalex_id
from citeworth_assets.lib.mag import tsv
from citeworth_assets.lib.mag.openalex_fields import topic_field
from citeworth_assets.lib.mag.openalex_snapshot import iter_snapshot_records, snapshot_parts
from citeworth_assets.lib.mag.titles import mag_normalise_title
from citeworth_assets.lib.read_issues import IssueLog, ReadIssue


def _find(folder: Path, name: str) -> Path | None:
    for candidate in (folder / name, folder / f"{name}.gz"):
        if candidate.is_file():
            return candidate
    return None


def mag_level0_fields(folder: Path, log: IssueLog) -> dict[int, str]:
    """FieldOfStudyId -> display name of the level-0 fields."""
    path = _find(folder, tsv.FIELDS_OF_STUDY.name)
    if path is None:
        return {}
    return {
        row["FieldOfStudyId"]: row["DisplayName"]
        for row in tsv.read_mag_file(path, tsv.FIELDS_OF_STUDY, log)
        if row["Level"] == 0
    }


def mag_works(folder: str | Path, log: IssueLog) -> Iterator[dict]:
    """work_schema() rows of a MAG dump folder (in-memory join of authors and fields; see module doc)."""
    folder = Path(folder)
    papers = _find(folder, tsv.PAPERS.name)
    if papers is None:
        log.add(ReadIssue(str(folder / tsv.PAPERS.name), None, None, "missing_file", "no Papers.txt"))
        return
    names: dict[int, str] = {}
    if path := _find(folder, tsv.AUTHORS.name):
        names = {
            r["AuthorId"]: r["DisplayName"] or r["NormalizedName"] for r in tsv.read_mag_file(path, tsv.AUTHORS, log)
        }
    authors: dict[int, list[tuple[int, str]]] = {}
    if path := _find(folder, tsv.PAPER_AUTHOR_AFFILIATIONS.name):
        for row in tsv.read_mag_file(path, tsv.PAPER_AUTHOR_AFFILIATIONS, log):
            name = names.get(row["AuthorId"]) or row.get("OriginalAuthor")
            if name:
                authors.setdefault(row["PaperId"], []).append((row["AuthorSequenceNumber"] or 0, name))
    level0 = mag_level0_fields(folder, log)
    fields: dict[int, set[str]] = {}
    if path := _find(folder, tsv.PAPER_FIELDS_OF_STUDY.name):
        for row in tsv.read_mag_file(path, tsv.PAPER_FIELDS_OF_STUDY, log):
            if row["FieldOfStudyId"] in level0:
                fields.setdefault(row["PaperId"], set()).add(level0[row["FieldOfStudyId"]])
    for row in tsv.read_mag_file(papers, tsv.PAPERS, log):
        paper_id = row["PaperId"]
        title = row.get("OriginalTitle") or row.get("PaperTitle")
        yield {
            "work_id": f"mag:{paper_id}",
            "source": "mag",
            "mag_id": str(paper_id),
            "openalex_id": None,
            "title": title,
            "normalised_title": mag_normalise_title(row.get("PaperTitle") or title),
            "year": row.get("Year"),
            "authors": [name for _, name in sorted(authors.get(paper_id, []), key=lambda a: a[0])],
            "citation_count": row.get("CitationCount") or 0,
            "doi": normalise_doi(row.get("Doi")),
            "arxiv_id": _arxiv_from_doi(row.get("Doi")),
            "fields": sorted(fields.get(paper_id, ())),
            "source_file": papers.name,
            "line": row["_line"],
        }


def mag_work_references(folder: str | Path, log: IssueLog) -> Iterator[dict]:
    path = _find(Path(folder), tsv.PAPER_REFERENCES.name)
    if path is None:
        return
    for row in tsv.read_mag_file(path, tsv.PAPER_REFERENCES, log):
        yield {
            "citing_work_id": f"mag:{row['PaperId']}",
            "cited_work_id": f"mag:{row['PaperReferenceId']}",
            "source": "mag",
        }


def _arxiv_from_doi(doi: str | None) -> str | None:
    """arXiv's own DOIs (10.48550/arXiv.1703.01234) name the arXiv id."""
    doi = normalise_doi(doi)
    if doi and doi.startswith("10.48550/arxiv."):
        found = find_arxiv_ids(doi[len("10.48550/arxiv.") :])
        return found[0] if found else None
    return None


def _openalex_arxiv_id(record: dict, doi: str | None, report) -> str | None:
    from_doi = _arxiv_from_doi(doi)
    if from_doi:
        return from_doi
    for location in _typed(record, "locations", list, report) or []:
        if not isinstance(location, dict):
            continue
        url = location.get("landing_page_url")
        if isinstance(url, str) and "arxiv.org/abs/" in url:
            found = find_arxiv_ids(url.split("arxiv.org/abs/", 1)[1])
            if found:
                return found[0]
    return None


INT32_MAX, INT64_MAX = 2**31 - 1, 2**63 - 1
_KINDS = {int: "an integer", str: "a string", list: "a list", dict: "an object"}


def _typed(record: dict, name: str, kind: type | tuple[type, ...], report):
    """``record[name]`` when it is of the expected type (or absent / null); otherwise a counted ``bad_type`` issue
    and None, so that a mistyped field costs that field only. A bool is no integer here."""
    value = record.get(name)
    if value is None or (isinstance(value, kind) and not (isinstance(value, bool) and kind is int)):
        return value
    report(f"{name} is a {type(value).__name__}, not {_KINDS.get(kind, kind)}: field left out")
    return None


def _integer(record: dict, name: str, maximum: int, report) -> int | None:
    value = _typed(record, name, int, report)
    if value is not None and not 0 <= value <= maximum:
        report(f"{name} {value} is out of range: field left out")
        return None
    return value


def _mag_casing(name: str) -> str:
    """A level-0 concept as the MAG spells the field: OpenAlex writes ``Computer science``, the MAG (and the
    topics' mapping) ``Computer Science``; one field must not count as two."""
    return FIELD_BY_KEY.get(field_key(name), name)


def _fields(record: dict, report) -> list[str]:
    """Level-0 concepts (the MAG's fields); where a work has none (concepts are deprecated), the MAG fields of its
    primary topic and topics (:mod:`citeworth_assets.lib.mag.openalex_fields`)."""
    concepts = _typed(record, "concepts", list, report) or []
    topics = list(_typed(record, "topics", list, report) or [])
    primary = _typed(record, "primary_topic", dict, report)
    fields = {
        _mag_casing(c["display_name"])
        for c in concepts
        if isinstance(c, dict) and c.get("level") == 0 and isinstance(c.get("display_name"), str)
    }
    if fields:
        return sorted(fields)
    for topic in [primary, *topics] if primary else topics:
        if isinstance(topic, dict) and (field := topic_field(topic)):
            fields.add(field)
    return sorted(fields)


def _authors(record: dict, report) -> list[str]:
    authors = []
    for authorship in _typed(record, "authorships", list, report) or []:
        if not isinstance(authorship, dict):
            continue
        author = authorship.get("author") if isinstance(authorship.get("author"), dict) else {}
        name = author.get("display_name") or authorship.get("raw_author_name")
        if isinstance(name, str) and name:
            authors.append(name)
    return authors


def openalex_work(record: dict, path: Path, line: int, log: IssueLog) -> dict | None:
    """A work_schema() row of one OpenAlex work record, or None when it has no id. A field of the wrong type (a
    number, string or object where the format has another) is a counted ``bad_type`` issue and left out alone."""
    work_id = short_openalex_id(record.get("id"))
    if not work_id:
        log.add(ReadIssue(str(path), line, None, "missing_id", "OpenAlex work without id skipped"))
        return None

    def report(message: str) -> None:
        log.add(ReadIssue(str(path), line, None, "bad_type", message, work_id))

    ids = _typed(record, "ids", dict, report) or {}
    mag = ids.get("mag")
    if mag is not None and not (isinstance(mag, (int, str)) and not isinstance(mag, bool) and str(mag).isdigit()):
        report(f"ids.mag {str(mag)[:40]!r} is not a number: field left out")
        mag = None
    title = _typed(record, "title", str, report) or _typed(record, "display_name", str, report)
    doi = _typed(record, "doi", str, report)
    return {
        "work_id": work_id,
        "source": "openalex",
        "mag_id": str(mag) if mag not in (None, "") else None,
        "openalex_id": work_id,
        "title": title,
        "normalised_title": mag_normalise_title(title),
        "year": _integer(record, "publication_year", INT32_MAX, report),
        "authors": _authors(record, report),
        "citation_count": _integer(record, "cited_by_count", INT64_MAX, report) or 0,
        "doi": normalise_doi(doi),
        "arxiv_id": _openalex_arxiv_id(record, doi, report),
        "fields": _fields(record, report),
        "source_file": path.name,
        "line": line,
    }


def referenced_works(record: dict, path: Path, line: int, work_id: str, log: IssueLog) -> list[str]:
    """The short ids a work cites. ``referenced_works`` other than a list (a number, a string, an object: seen in
    damaged exports) is one ``bad_type`` issue and no edge, never an edge per character or key; an entry that is no
    id string is one issue and skipped."""

    def report(message: str) -> None:
        log.add(ReadIssue(str(path), line, None, "bad_type", message, work_id))

    cited = []
    for index, value in enumerate(_typed(record, "referenced_works", list, report) or []):
        if (short := short_openalex_id(value)) is not None:
            cited.append(short)
        else:
            report(f"referenced_works[{index}] is a {type(value).__name__}, not an id: left out")
    return cited


def snapshot_files(snapshot: str | Path, log: IssueLog) -> list[Path]:
    """The works parts of an OpenAlex snapshot in any layout, sorted (:func:`openalex_snapshot.snapshot_parts`)."""
    return snapshot_parts(snapshot, log)


def openalex_works(snapshot: str | Path, log: IssueLog, edges: list | None = None) -> Iterator[dict]:
    """work_schema() rows of a snapshot, streaming; ``edges``, if given, receives work_reference_schema() rows."""
    for entry in iter_snapshot_records(snapshot, log):
        row = openalex_work(entry.record, entry.path, entry.number, log)
        if row is None:
            continue
        if edges is not None:
            for short in referenced_works(entry.record, entry.path, entry.number, row["work_id"], log):
                edges.append({"citing_work_id": row["work_id"], "cited_work_id": short, "source": "openalex"})
        yield row
