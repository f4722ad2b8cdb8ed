"""The three clean tables of §3.2 (Papers, References, Citations) built from parsed papers.

Every adapter (S2ORC pdf_parses, Science-Parse JSON) first turns a paper into a :class:`ParsedPaper`;
:func:`build_tables` (or :class:`TableBuilder`, streaming) then merges the collection:

* papers are de-duplicated by ``paper_id`` (the first record wins; later ones are counted);
* references are de-duplicated by normalised title. One record of each group supplies *all* the
  fields (the first one that has an abstract, else the first one), so a title is never paired with
  another duplicate's abstract. References without a usable title cannot be merged safely: they
  group by their linked paper id when they have one, else they stay private to their paper;
* ``total_citations`` counts the mentions of the reference in the collection (the paper's wording:
  "the total number of times the reference was mentioned");
* a mention of a reference the paper does not list is counted and dropped; offsets outside the
  context are counted and set to null (the citing sentence itself is kept).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache

from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.read_issues import IssueLog, ReadIssue

pa = lazy_module("pyarrow")


@cache
def papers_schema() -> pa.Schema:
    return pa.schema(
        [("paper_id", pa.string()), ("title", pa.string()), ("abstract", pa.string()), ("text", pa.string())]
    )


@cache
def references_schema() -> pa.Schema:
    return pa.schema(
        [
            ("reference_id", pa.string()),
            ("title", pa.string()),
            ("total_citations", pa.int64()),
            ("abstract", pa.string()),
        ]
    )


@cache
def citations_schema() -> pa.Schema:
    return pa.schema(
        [
            ("paper_id", pa.string()),
            ("reference_id", pa.string()),
            ("internal_reference_id", pa.string()),
            ("context", pa.string()),
            ("start_offset", pa.int32()),
            ("end_offset", pa.int32()),
        ]
    )


# Sections are joined with a blank line: the concatenated text must not glue the last sentence of one
# section to the first of the next, and the example builder splits the text back on it.
SECTION_SEPARATOR = "\n\n"

_NON_WORD = re.compile(r"[\W_]+")


@dataclass
class ParsedReference:
    internal_id: str
    title: str | None
    abstract: str | None = None
    linked_paper_id: str | None = None


@dataclass
class ParsedMention:
    internal_id: str
    context: str
    start_offset: int | None
    end_offset: int | None


@dataclass
class ParsedPaper:
    """One parsed paper, whatever parser produced it; ``source`` names the file for problem reports."""

    paper_id: str
    title: str | None
    abstract: str | None
    sections: list[str]
    references: list[ParsedReference] = field(default_factory=list)
    mentions: list[ParsedMention] = field(default_factory=list)
    source: str = ""


@dataclass
class SciqfsTables:
    papers: pa.Table
    references: pa.Table
    citations: pa.Table


def normalise_title(title: str | None) -> str:
    """Case-, accent-form- and punctuation-insensitive title key ('' when there is no word)."""
    if not title:
        return ""
    folded = unicodedata.normalize("NFKC", title).casefold()
    return " ".join(_NON_WORD.sub(" ", folded).split())


def reference_key(paper_id: str, reference: ParsedReference) -> str:
    """The de-duplication key of a reference: its normalised title, else its link, else private."""
    title = normalise_title(reference.title)
    if title:
        return "title:" + title
    if reference.linked_paper_id:
        return "linked:" + reference.linked_paper_id
    return f"untitled:{paper_id}:{reference.internal_id}"


def reference_id(key: str) -> str:
    """A stable identifier derived from the de-duplication key (same collection, same ids)."""
    return hashlib.sha1(key.encode("utf-8")).hexdigest()[:16]


def _issue(log: IssueLog, paper: ParsedPaper, kind: str, message: str) -> None:
    log.add(
        ReadIssue(file=paper.source, line=None, byte_offset=None, kind=kind, message=message, paper_id=paper.paper_id)
    )


def _checked_offsets(mention: ParsedMention, paper: ParsedPaper, log: IssueLog) -> tuple[int | None, int | None]:
    start, end = mention.start_offset, mention.end_offset
    if start is None and end is None:
        return None, None
    if type(start) is not int or type(end) is not int or not 0 <= start <= end <= len(mention.context):
        _issue(
            log,
            paper,
            "offset_out_of_range",
            f"mention of {mention.internal_id!r}: offsets ({start!r}, {end!r}) outside a context of "
            f"{len(mention.context)} chars; kept without offsets",
        )
        return None, None
    return start, end


class TableBuilder:
    """Merges parsed papers one at a time: :meth:`add` gives a paper's row and its citation rows at once (so they can
    be streamed to their tables), :meth:`reference_rows` the de-duplicated references once every paper is in.

    ``catalogue_abstracts`` maps a normalised title to an abstract (the paper joined reference titles
    with the arXiv metadata); it fills the abstract of a chosen reference record that has none.
    """

    def __init__(self, log: IssueLog, catalogue_abstracts: Mapping[str, str] | None = None):
        self.log, self.catalogue_abstracts = log, catalogue_abstracts
        self.seen: set[str] = set()
        self.groups: dict[str, list[ParsedReference]] = {}
        self.mentions_per_key: dict[str, int] = {}

    def add(self, paper: ParsedPaper) -> tuple[dict | None, list[dict]]:
        """(the paper's row, or None for a paper seen before; its citation rows)."""
        if paper.paper_id in self.seen:
            _issue(self.log, paper, "duplicate_paper", "paper_id seen before; the first record is kept")
            return None, []
        self.seen.add(paper.paper_id)
        row = {
            "paper_id": paper.paper_id,
            "title": paper.title,
            "abstract": paper.abstract,
            "text": SECTION_SEPARATOR.join(s for s in paper.sections if s),
        }
        keys = {}
        for reference in paper.references:
            key = reference_key(paper.paper_id, reference)
            keys[reference.internal_id] = key
            self.groups.setdefault(key, []).append(reference)
        citations = []
        for mention in paper.mentions:
            key = keys.get(mention.internal_id)
            if key is None:
                message = f"mention of {mention.internal_id!r}, which the paper does not list; dropped"
                _issue(self.log, paper, "unknown_reference", message)
                continue
            start, end = _checked_offsets(mention, paper, self.log)
            self.mentions_per_key[key] = self.mentions_per_key.get(key, 0) + 1
            citations.append(
                {
                    "paper_id": paper.paper_id,
                    "reference_id": reference_id(key),
                    "internal_reference_id": mention.internal_id,
                    "context": mention.context,
                    "start_offset": start,
                    "end_offset": end,
                }
            )
        return row, citations

    def reference_rows(self) -> list[dict]:
        """One row per de-duplication key: the first record with an abstract (else the first) gives every field."""
        rows = []
        for key, records in self.groups.items():
            chosen = next((r for r in records if r.abstract), records[0])
            abstract = chosen.abstract
            if not abstract and self.catalogue_abstracts:
                abstract = self.catalogue_abstracts.get(normalise_title(chosen.title))
            rows.append(
                {
                    "reference_id": reference_id(key),
                    "title": chosen.title,
                    "total_citations": self.mentions_per_key.get(key, 0),
                    "abstract": abstract or None,
                }
            )
        return rows


def build_tables(
    papers: Iterable[ParsedPaper],
    log: IssueLog,
    catalogue_abstracts: Mapping[str, str] | None = None,
) -> SciqfsTables:
    """Merge parsed papers into the three tables, in memory (:class:`TableBuilder` streams them)."""
    builder, paper_rows, citation_rows = TableBuilder(log, catalogue_abstracts), [], []
    for paper in papers:
        row, citations = builder.add(paper)
        if row is not None:
            paper_rows.append(row)
            citation_rows.extend(citations)
    return SciqfsTables(
        papers=pa.Table.from_pylist(paper_rows, schema=papers_schema()),
        references=pa.Table.from_pylist(builder.reference_rows(), schema=references_schema()),
        citations=pa.Table.from_pylist(citation_rows, schema=citations_schema()),
    )
