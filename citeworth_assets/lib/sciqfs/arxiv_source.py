"""unarXive papers (2022 JSON lines, or the arXiv lake rows) as :class:`ParsedPaper`.

A paper's paragraphs carry ``{{cite:HASH}}`` markers; each becomes the token ``CIT`` and a span handed to
the S2ORC adapter, so the context of a mention is the sentence of its paragraph that contains it (the
same splitter splits the paper into the example's sentences later) and the offsets point at the token.

A bibliography entry is linked to the cited work in this order: the works catalogue through the
resolver (``arxiv_resolutions``'s ``work_id``), else an arXiv id (the resolved work's, one found in
the string or ``contained_arXiv_ids``, else unarXive's shipped ``ids.arxiv_id``) as ``arxiv:<id>``.
The catalogue (MAG / OpenAlex ``works``) holds titles but **no abstracts**, so the query comes from
an arXiv id only: the abstract of that paper when it is itself in the dump (unarXive 2022 ships
``abstract``, kept in the lake's ``arxiv_papers``), else arXiv's metadata snapshot (``<dumps>/arxiv-metadata``,
field ``abstract``). The title comes from the catalogue work, else the in-dump paper, else the snapshot. Entries
with neither link stay untitled and private to their paper (no query: no example), as in the S2ORC adapter.

In the graph a dump file is one partition (:func:`arxiv_papers`): its papers, and of the lake only the works and
cited papers they need, selected by DuckDB; a paper an earlier dump file gives is left out (``duplicate_paper``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import groupby
from pathlib import Path

from citeworth_assets.lib import lake
from citeworth_assets.lib.arxiv import unarxive2022
from citeworth_assets.lib.arxiv.dump_files import arxiv_metadata_files
from citeworth_assets.lib.arxiv.resolution import Catalogue, resolve
from citeworth_assets.lib.arxiv.schemas import DUMP_FILE_DIMENSION as DIMENSION
from citeworth_assets.lib.duckdb_limits import bounded
from citeworth_assets.lib.identifiers import normalise_arxiv_id
from citeworth_assets.lib.jsonl import IssueLog, ReadIssue, iter_json_lines
from citeworth_assets.lib.sciqfs.s2orc_source import (
    SentenceBounds,
    paper_from_paragraphs,
)
from citeworth_assets.lib.sciqfs.tables import ParsedPaper

ARXIV_PREFIX = "arxiv:"


# unarXive 2022's markers read as the tokens of the 2020 release and the context exports (CIT, FORMULA, ...): a
# 40-hex hash or a UUID in a sentence is noise for ROUGE and for the TF-IDF baselines (character trigrams above all).
CITATION_TOKEN = "CIT"
ANY_MARKER = re.compile(r"\{\{[a-z]+:[^{}\s]*\}\}")
OTHER_MARKER = re.compile(r"\{\{(formula|figure|table):[^{}\s]*\}\}")


def readable_text(text: str) -> tuple[str, list[tuple[int, int, str]]]:
    """The paragraph with markers as tokens and whitespace runs as one space (LaTeX line breaks would otherwise
    split the sections the example builder separates with a blank line), and each citation's (start, end, ref_id)
    in it: the citation token's span."""
    text = _clean(ANY_MARKER.sub(lambda m: f" {m.group(0)} ", text)) or ""
    text = OTHER_MARKER.sub(lambda m: m.group(1).upper(), text)
    pieces, citations, length, position = [], [], 0, 0
    for marker in unarxive2022.MARKER.finditer(text):
        pieces += [text[position : marker.start()], CITATION_TOKEN]
        length += marker.start() - position
        citations.append((length, length + len(CITATION_TOKEN), marker.group(1)))
        length += len(CITATION_TOKEN)
        position = marker.end()
    return "".join([*pieces, text[position:]]), citations


def _clean(text) -> str | None:
    return (" ".join(text.split()) or None) if isinstance(text, str) else None


def record_abstract(record: dict) -> str | None:
    """The abstract of a unarXive 2022 record: its ``abstract`` paragraph, else the arXiv metadata's (the reader's
    rule, which also fills the lake's ``arxiv_papers.abstract``)."""
    return unarxive2022.abstract_of(record, record.get("metadata") if isinstance(record.get("metadata"), dict) else {})


def read_metadata_abstracts(path: str | Path, log: IssueLog) -> Iterator[tuple[str, str | None, str]]:
    """(arXiv id, title, abstract) of arXiv's metadata snapshot (JSON lines with ``id``, ``title``, ``abstract``)."""
    for entry in iter_json_lines(path, log):
        identifier, abstract = entry.record.get("id"), _clean(entry.record.get("abstract"))
        if isinstance(identifier, str) and abstract:
            yield normalise_arxiv_id(identifier) or identifier, _clean(entry.record.get("title")), abstract


@dataclass
class CitedWorks:
    """Where a cited work's title and abstract come from (see the module docstring)."""

    works: Mapping[str, dict] = field(default_factory=dict)  # work_id -> works row (title, arxiv_id)
    dump_papers: Mapping[str, tuple[str | None, str | None]] = field(
        default_factory=dict
    )  # arXiv id -> (title, abstract)
    metadata: Mapping[str, tuple[str | None, str]] = field(default_factory=dict)  # arXiv id -> (title, abstract)

    def arxiv_id(self, reference: dict, work: dict | None) -> str | None:
        candidates = [
            (work or {}).get("arxiv_id"),
            *(reference.get("arxiv_ids") or []),
            reference.get("linked_arxiv_id"),
        ]
        return next((normalise_arxiv_id(c) for c in candidates if c and normalise_arxiv_id(c)), None)

    def cited(self, reference: dict, work_id: str | None) -> tuple[str | None, str | None, str | None]:
        """(linked id, title, abstract) of one ``arxiv_references`` row and its resolved work id."""
        work = self.works.get(work_id) if work_id else None
        arxiv_id = self.arxiv_id(reference, work)
        if work is None and arxiv_id is None:
            return None, None, None
        in_dump = self.dump_papers.get(arxiv_id, (None, None)) if arxiv_id else (None, None)
        snapshot = self.metadata.get(arxiv_id, (None, None)) if arxiv_id else (None, None)
        title = (work or {}).get("title") or in_dump[0] or snapshot[0]
        return (work_id if work else ARXIV_PREFIX + arxiv_id), title, in_dump[1] or snapshot[1]


def paper_from_rows(
    paper_row: dict,
    paragraphs: Iterable[dict],
    references: Iterable[dict],
    resolved: Mapping[str, str | None],
    split: SentenceBounds,
    cited: CitedWorks,
    abstract: str | None = None,
) -> ParsedPaper:
    """A paper from its ``arxiv_papers`` row, ``arxiv_paragraphs`` rows and ``arxiv_references`` rows; ``resolved``
    maps a ref_id to its catalogue work id. The text is :func:`readable_text`'s, so markers are found again in it
    with the reader's pattern. Markers without a bib entry were counted by the reader and are left out."""
    titles, abstracts, links = {}, {}, {}
    for reference in references:
        linked, title, cited_abstract = cited.cited(reference, resolved.get(reference["ref_id"]))
        links[reference["ref_id"]] = linked
        titles[reference["ref_id"]] = title
        if linked and cited_abstract:
            abstracts[linked] = cited_abstract
    rows = []
    for row in paragraphs:
        text, citations = readable_text(row["text"])
        spans = [
            {
                "start": start,
                "end": end,
                "ref_id": ref_id if ref_id in links else None,
                "linked_paper_id": links.get(ref_id),
            }
            for start, end, ref_id in citations
        ]
        rows.append({"text": text, "cite_spans": spans})
    source = f"{paper_row.get('source_file')}:{paper_row.get('line')}"
    return paper_from_paragraphs(
        paper_row["paper_id"], rows, split, abstracts, titles, paper_row.get("title"), abstract, source
    )


def dump_papers(path: str | Path) -> dict[str, tuple[str | None, str | None]]:
    """arXiv id -> (title, abstract) of every paper of a unarXive 2022 file (a first pass: problems are counted by
    the second)."""
    found = {}
    for entry in iter_json_lines(path, IssueLog(), repair=True):
        record, raw_id = entry.record, entry.record.get("paper_id")
        if isinstance(raw_id, (str, int)) and raw_id:
            metadata = record.get("metadata") if isinstance(record.get("metadata"), dict) else {}
            found[normalise_arxiv_id(str(raw_id)) or str(raw_id)] = (
                _clean(metadata.get("title")),
                record_abstract(record),
            )
    return found


def papers_from_unarxive_2022(
    path: str | Path,
    split: SentenceBounds,
    log: IssueLog,
    cited: CitedWorks,
    catalogue: Catalogue | None = None,
) -> Iterator[ParsedPaper]:
    """Every paper of a unarXive 2022 file, streaming, its references resolved against ``catalogue`` when given.

    ``cited.dump_papers`` should hold the file's own papers (:func:`dump_papers`), so that a paper cited by another
    of the dump gives its abstract whichever comes first."""
    path = Path(path)
    for entry in iter_json_lines(path, log, repair=True):  # as the unarXive 2022 reader: papers kept
        paper = unarxive2022.paper_from_record(entry.record, path, entry.number, entry.byte_offset, log)
        if paper is None:
            continue
        resolved = {r["ref_id"]: resolve(r, catalogue)["work_id"] for r in paper.references} if catalogue else {}
        yield paper_from_rows(
            paper.row, paper.paragraphs, paper.references, resolved, split, cited, paper.row["abstract"]
        )


# -- the arXiv lake tables, one dump-file partition at a time ---------------------------------------------------------


def _glob(lake_root: Path, table: str, key: str | None = None) -> str:
    path = (
        lake.partition_dir(lake_root, table, key, DIMENSION) / "*.parquet" if key else lake.table_glob(lake_root, table)
    )
    return "'" + str(path).replace("'", "''") + "'"


def _rows_with(connection, lake_root: Path, table: str, columns: list[str], column: str, values) -> list[dict]:
    """Rows of ``table`` (every partition) whose ``column`` is in ``values``, in file and row order; a column that a
    partition written before it existed lacks is null."""
    if not values or not lake.has_data(lake_root, table):
        return []
    sql = f"""
        SELECT {", ".join(columns)}, filename, file_row_number
        FROM read_parquet({_glob(lake_root, table)}, union_by_name = true, filename = true, file_row_number = true)
        WHERE list_contains(?, {column})
    """
    result = connection.execute(sql, [sorted(values)])
    names = [d[0] for d in result.description]
    rows = [dict(zip(names, values)) for values in result.fetchall()]
    return sorted(rows, key=lambda r: (Path(r.pop("filename")), r.pop("file_row_number")))


def _partition_rows(lake_root: Path, table: str, key: str, columns: list[str] | None = None) -> Iterator[dict]:
    if lake.partition_dir(lake_root, table, key, DIMENSION).is_dir():
        yield from lake.iter_partition_rows(lake_root, table, key, columns, DIMENSION)


def cited_works_for(lake_root: Path, dumps: Path, key: str, log: IssueLog) -> CitedWorks:
    """What the lake and the dump root say about the works one dump file's papers cite, read for those works only
    (DuckDB filters on the lake): the resolved works' titles, titles and abstracts of the cited arXiv ids that are
    papers of any partition's arxiv_papers (unarXive 2022 ships abstracts), and the metadata snapshot's."""
    work_ids = {r["work_id"] for r in _partition_rows(lake_root, "arxiv_resolutions", key, ["work_id"]) if r["work_id"]}
    with bounded() as connection:
        works = {
            r["work_id"]: r
            for r in _rows_with(connection, lake_root, "works", ["work_id", "title", "arxiv_id"], "work_id", work_ids)
        }
        wanted = {normalise_arxiv_id(w["arxiv_id"]) for w in works.values() if w["arxiv_id"]}
        for row in _partition_rows(lake_root, "arxiv_references", key, ["arxiv_ids", "linked_arxiv_id"]):
            wanted.update(normalise_arxiv_id(i) for i in [*(row["arxiv_ids"] or []), row["linked_arxiv_id"]] if i)
        wanted.discard(None)
        in_dump = {
            row["paper_id"]: (row["title"], row["abstract"])
            for row in _rows_with(
                connection, lake_root, "arxiv_papers", ["paper_id", "title", "abstract"], "paper_id", wanted
            )
            if row["title"] or row["abstract"]
        }
    metadata = {
        arxiv_id: (title, abstract)
        for path in arxiv_metadata_files(dumps, log)
        for arxiv_id, title, abstract in read_metadata_abstracts(path, log)
        if arxiv_id in wanted
    }
    return CitedWorks(works, in_dump, metadata)


def _earlier_papers(lake_root: Path, key: str) -> set[str]:
    """Papers of this dump file that a dump file sorting before it already gives (the first one is kept): found in
    the earlier files' arxiv_papers, confirmed in their paragraphs."""
    prefix = DIMENSION + "="
    earlier = sorted(
        p.name.removeprefix(prefix)
        for p in (lake_root / "arxiv_paragraphs").glob(prefix + "*")
        if p.is_dir() and p.name.removeprefix(prefix) < key
    )
    if not earlier:
        return set()
    ours = sorted({r["paper_id"] for r in _partition_rows(lake_root, "arxiv_paragraphs", key, ["paper_id"])})
    found: set[str] = set()
    with bounded() as connection:
        for other in earlier:
            if not ours:
                break
            for table in ("arxiv_papers", "arxiv_paragraphs"):
                if not lake.partition_dir(lake_root, table, other, DIMENSION).is_dir():
                    break
                files = _glob(lake_root, table, other)
                sql = f"SELECT DISTINCT paper_id FROM read_parquet({files}) WHERE list_contains(?, paper_id)"
                candidates = sorted(row[0] for row in connection.execute(sql, [ours]).fetchall())
                if not candidates:
                    break
            else:
                found.update(candidates)
    return found


def dump_file_papers(
    lake_root: Path, key: str, split: SentenceBounds, cited: CitedWorks, log: IssueLog
) -> Iterator[ParsedPaper]:
    """The papers of one dump-file partition of the arXiv lake tables (its references and resolutions held, its
    paragraphs streamed); a citing paper's abstract is its arxiv_papers row's. A paper that an earlier dump file
    already gives is counted as ``duplicate_paper`` and left out."""
    repeated = _earlier_papers(lake_root, key)
    rows = {r["paper_id"]: r for r in _partition_rows(lake_root, "arxiv_papers", key)}
    references: dict[str, list[dict]] = {}
    for row in _partition_rows(lake_root, "arxiv_references", key):
        references.setdefault(row["citing_paper_id"], []).append(row)
    resolved: dict[str, dict[str, str | None]] = {}
    for row in _partition_rows(lake_root, "arxiv_resolutions", key):
        resolved.setdefault(row["citing_paper_id"], {})[row["ref_id"]] = row["work_id"]
    for paper_id, group in groupby(_partition_rows(lake_root, "arxiv_paragraphs", key), key=lambda r: r["paper_id"]):
        row = rows.get(paper_id, {"paper_id": paper_id})
        if paper_id in repeated:
            source = f"{row.get('source_file')}:{row.get('line')}"
            log.add(
                ReadIssue(
                    source,
                    None,
                    None,
                    "duplicate_paper",
                    "paper_id given by an earlier dump file; the first record is kept",
                    paper_id,
                )
            )
            continue
        yield paper_from_rows(
            row, group, references.get(paper_id, []), resolved.get(paper_id, {}), split, cited, row.get("abstract")
        )


def arxiv_papers(lake_root: Path, dumps: Path, key: str, split: SentenceBounds, log: IssueLog) -> Iterator[ParsedPaper]:
    """The SciQFS citing papers of one unarXive dump file: nothing before its arXiv tables exist."""
    if not lake.partition_dir(lake_root, "arxiv_paragraphs", key, DIMENSION).is_dir():
        return
    yield from dump_file_papers(lake_root, key, split, cited_works_for(lake_root, dumps, key, log), log)
