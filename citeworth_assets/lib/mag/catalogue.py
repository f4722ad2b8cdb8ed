"""The works catalogue: MAG papers and OpenAlex works in one row shape, and their citation edges.

MAG rows are assembled from Papers, PaperAuthorAffiliations + Authors (names in author order) and
PaperFieldsOfStudy + FieldsOfStudy (level-0 fields only). :func:`mag_works` joins them in memory, which
suits samples and single partitions; for a whole dump the same join runs in DuckDB over the lake tables
that the per-file readers fill. OpenAlex works carry all of it in one record.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from citeworth_assets.lib.dump_root import followed_out
from citeworth_assets.lib.identifiers import find_arxiv_ids, normalise_doi, short_openalex_id
from citeworth_assets.lib.jsonl import iter_json_lines
from citeworth_assets.lib.mag import tsv
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
    """WORK_SCHEMA rows of a MAG dump folder (in-memory join of authors and fields; see module doc)."""
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


def _openalex_arxiv_id(record: dict) -> str | None:
    from_doi = _arxiv_from_doi(record.get("doi"))
    if from_doi:
        return from_doi
    for location in record.get("locations") or []:
        url = (location or {}).get("landing_page_url") or ""
        if "arxiv.org/abs/" in url:
            found = find_arxiv_ids(url.split("arxiv.org/abs/", 1)[1])
            if found:
                return found[0]
    return None


def openalex_work(record: dict, path: Path, line: int, log: IssueLog) -> dict | None:
    """A WORK_SCHEMA row of one OpenAlex work record, or None when it has no id."""
    work_id = short_openalex_id(record.get("id"))
    if not work_id:
        log.add(ReadIssue(str(path), line, None, "missing_id", "OpenAlex work without id skipped"))
        return None
    ids = record.get("ids") if isinstance(record.get("ids"), dict) else {}
    mag = ids.get("mag")
    title = record.get("title") or record.get("display_name")
    if title is not None and not isinstance(title, str):
        log.add(ReadIssue(str(path), line, None, "bad_type", f"title is a {type(title).__name__}", work_id))
        title = str(title)
    year = record.get("publication_year")
    if year is not None and not isinstance(year, int):
        log.add(ReadIssue(str(path), line, None, "bad_type", "publication_year is not an integer", work_id))
        year = None
    authors = []
    for authorship in record.get("authorships") or []:
        author = (authorship or {}).get("author") or {}
        name = author.get("display_name") or (authorship or {}).get("raw_author_name")
        if name:
            authors.append(name)
    fields = sorted(
        {c["display_name"] for c in record.get("concepts") or [] if isinstance(c, dict) and c.get("level") == 0}
    )
    cited = record.get("cited_by_count")
    return {
        "work_id": work_id,
        "source": "openalex",
        "mag_id": str(mag) if mag not in (None, "") else None,
        "openalex_id": work_id,
        "title": title,
        "normalised_title": mag_normalise_title(title),
        "year": year,
        "authors": authors,
        "citation_count": cited if isinstance(cited, int) else 0,
        "doi": normalise_doi(record.get("doi")),
        "arxiv_id": _openalex_arxiv_id(record),
        "fields": fields,
        "source_file": path.name,
        "line": line,
    }


def snapshot_files(snapshot: str | Path, log: IssueLog) -> list[Path]:
    """``works/updated_date=*/part_*.gz`` of an OpenAlex snapshot (or of its ``works`` folder), sorted; a part that
    is a symlink leading out of its folder and the snapshot is reported and left out (:func:`followed_out`)."""
    root = Path(snapshot)
    works = root / "works" if (root / "works").is_dir() else root
    return [p for p in sorted(works.glob("updated_date=*/part_*.gz")) if not followed_out(p, p.parent, root, log)]


def openalex_works(snapshot: str | Path, log: IssueLog, edges: list | None = None) -> Iterator[dict]:
    """WORK_SCHEMA rows of a snapshot, streaming; ``edges``, if given, receives WORK_REFERENCE_SCHEMA rows."""
    for path in snapshot_files(snapshot, log):
        for entry in iter_json_lines(path, log):
            row = openalex_work(entry.record, path, entry.number, log)
            if row is None:
                continue
            if edges is not None:
                for cited in entry.record.get("referenced_works") or []:
                    if short := short_openalex_id(cited):
                        edges.append({"citing_work_id": row["work_id"], "cited_work_id": short, "source": "openalex"})
            yield row
