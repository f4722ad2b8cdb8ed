"""Citation contexts of whole papers and their export in unarXive's context CSV format.

Candidates (unarXive 2020, as published): the ``bibitem`` rows whose ``cited_mag_id`` is set (and,
with ``min_citing_docs`` > 1, cited that often), in the order of the published query (by cited MAG id;
the same SQL is run here, so SQLite orders ties the same way). Each candidate's markers in its citing
paper's text give one context each. The CSV has seven fields separated by U+241E: cited MAG id,
adjacent MAG ids, citing MAG id, cited arXiv id, adjacent arXiv ids, citing arXiv id, text; id lists
are joined by U+241F and a missing value is written ``None`` (published ``str(None)``).

Here each paper is read once (not once per candidate) and its contexts are put back in the published
order when written. Differences from the published script, none of which changes its output on a
readable dump: a text that is not valid UTF-8 is decoded with replacements and counted (the script
stops), and a candidate whose citing paper has no text file is counted (the script skips it).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from citeworth_assets.lib.arxiv import unarxive2020, unarxive2022
from citeworth_assets.lib.arxiv.contexts import (
    UNARXIVE_2020,
    UNARXIVE_2022,
    ContextRules,
    ContextSettings,
    SentenceWindows,
    adjacent_ids,
    marker_context,
    punkt_tokenizer,
)
from citeworth_assets.lib.jsonl import IssueLog, ReadIssue

if TYPE_CHECKING:
    from nltk.tokenize.punkt import PunktSentenceTokenizer

RECORD_SEPARATOR, UNIT_SEPARATOR = "\u241e", "\u241f"


class Candidate(NamedTuple):
    uuid: str
    cited_mag_id: str | None
    cited_arxiv_id: str | None
    citing_mag_id: str | None
    citing_arxiv_id: str | None


def _text(value):
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else value


def published_candidates(refs: unarxive2020.RefsDb, min_citing_docs: int = 1) -> list[Candidate]:
    """The published candidate query, run as it was written (its order included)."""
    query = (
        "select uuid, cited_mag_id, cited_arxiv_id, citing_mag_id, citing_arxiv_id from bibitem"
        " where cited_mag_id in (select cited_mag_id from bibitem group by cited_mag_id"
        f" having count(uuid) > {int(min_citing_docs) - 1}) order by cited_mag_id"
    )
    return [Candidate(*(_text(v) for v in row)) for row in refs.connection.execute(query)]


@dataclass
class ContextRow:
    """One context; ``order`` puts it back in the published order."""

    order: tuple
    citing_paper_id: str | None
    citing_mag_id: str | None
    ref_id: str
    marker_start: int
    cited_mag_id: str | None
    cited_arxiv_id: str | None
    adjacent: list[tuple]
    text: str

    def as_row(self) -> dict:
        return {
            "citing_paper_id": self.citing_paper_id,
            "citing_mag_id": self.citing_mag_id,
            "ref_id": self.ref_id,
            "marker_start": self.marker_start,
            "cited_mag_id": self.cited_mag_id,
            "cited_arxiv_id": self.cited_arxiv_id,
            "adjacent_mag_ids": [None if a[0] is None else str(a[0]) for a in self.adjacent],
            "adjacent_arxiv_ids": [None if a[1] is None else str(a[1]) for a in self.adjacent],
            "text": self.text,
        }

    def csv_fields(self) -> list[str]:
        ids = lambda position: UNIT_SEPARATOR.join(str(a[position]) for a in self.adjacent)
        values = (self.cited_mag_id, ids(0), self.citing_mag_id, self.cited_arxiv_id, ids(1), self.citing_paper_id)
        return [str(v) for v in values] + [self.text]


def text_contexts(
    text: str,
    targets: Iterable[tuple[tuple, Candidate]],
    id_map: dict,
    settings: ContextSettings,
    rules: ContextRules,
    exact: bool = False,
    tokenizer: PunktSentenceTokenizer | None = None,
) -> Iterator[ContextRow]:
    """Contexts of the given candidates' markers in one text; ``id_map``: uuid -> (MAG id, arXiv id)."""
    tokenizer = tokenizer or punkt_tokenizer()
    windows = SentenceWindows(text, tokenizer, exact=exact) if settings.unit == "sentences" else None
    for order, candidate in targets:
        marker = "{{cite:" + candidate.uuid + "}}"
        start, occurrence = text.find(marker), 0
        while start >= 0:
            end = start + len(marker)
            adjacent = adjacent_ids(text, start, end, rules, id_map)
            context = marker_context(text, start, end, settings, rules, windows)
            yield ContextRow(
                (*order, occurrence),
                candidate.citing_arxiv_id,
                candidate.citing_mag_id,
                candidate.uuid,
                start,
                candidate.cited_mag_id,
                candidate.cited_arxiv_id,
                adjacent,
                context,
            )
            start, occurrence = text.find(marker, end), occurrence + 1


def contexts_2020(
    papers: str | Path,
    refs_db: str | Path,
    settings: ContextSettings,
    log: IssueLog,
    min_contexts: int = 1,
    min_citing_docs: int = 1,
    exact: bool = False,
    published_labels: bool = True,
    tokenizer: PunktSentenceTokenizer | None = None,
) -> list[ContextRow]:
    """All contexts of a folder of unarXive 2020 papers, in the published order and grouping.

    ``published_labels`` (rule set unarxive_2020) reproduces a defect of the published loop: a candidate
    whose citing paper has no text file is skipped without updating the current cited MAG id, so the
    contexts that follow, up to the next paper that has a file, are labelled with the cited MAG id of the
    candidate after the last one read, and grouped with it for the ``min_*`` filters. With ``False``
    (rule set unarxive_2020_corrected) every context carries its own bibitem's cited MAG id.
    """
    papers = Path(papers)
    refs = unarxive2020.RefsDb(refs_db)
    try:
        candidates = published_candidates(refs, min_citing_docs)
    finally:
        refs.close()
    id_map = {c.uuid: (c.cited_mag_id, c.cited_arxiv_id) for c in candidates}
    by_paper: dict[str, list] = {}
    for rank, candidate in enumerate(candidates):
        by_paper.setdefault(candidate.citing_arxiv_id, []).append(((rank,), candidate))
    by_rank: dict[int, list[ContextRow]] = {}
    present: set[str] = set()
    for arxiv_id in sorted(by_paper, key=str):
        path = papers / f"{arxiv_id}.txt"
        if not path.is_file():
            log.add(ReadIssue(str(path), None, None, "citing_paper_missing", "bibitems of a paper without text"))
            continue
        present.add(arxiv_id)
        lines = unarxive2020.decode_lines(path.read_bytes(), str(path), log, arxiv_id)
        text = "\n".join(line for _, _, line in lines)
        for row in text_contexts(text, by_paper[arxiv_id], id_map, settings, UNARXIVE_2020, exact, tokenizer):
            by_rank.setdefault(row.order[0], []).append(row)
    groups = _published_groups(candidates, present, by_rank, published_labels)
    return [row for group in groups if _kept(group, min_contexts, min_citing_docs) for row in group]


def _kept(group: list[ContextRow], min_contexts: int, min_citing_docs: int) -> bool:
    return len(group) >= min_contexts and len({row.ref_id for row in group}) >= min_citing_docs


def _published_groups(candidates, present, by_rank, published_labels: bool) -> Iterator[list[ContextRow]]:
    """The published loop over candidates: which contexts form a group and which cited MAG id they carry."""
    if not published_labels:
        rows = [row for rank in sorted(by_rank) for row in sorted(by_rank[rank], key=lambda r: r.order)]
        for _, group in groupby(rows, key=lambda row: row.cited_mag_id):
            yield list(group)
        return
    index, count = 0, len(candidates)
    current = candidates[0].cited_mag_id if candidates else None  # the loop's ctd_mag_id
    bag = current
    while index < count:
        group: list[ContextRow] = []
        while current == bag and index < count:
            if candidates[index].citing_arxiv_id not in present:
                index += 1  # published: skipped without updating ``current``
                continue
            for row in sorted(by_rank.get(index, []), key=lambda r: r.order):
                row.cited_mag_id = current
                group.append(row)
            index += 1
            if index < count:
                current = candidates[index].cited_mag_id
        if index < count:
            bag = candidates[index].cited_mag_id
        yield group


def write_contexts_csv(rows: Iterable[ContextRow], path: str | Path) -> int:
    """unarXive's context CSV (U+241E fields, U+241F lists, ``None`` for missing values); returns the line count."""
    count = 0
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        for row in rows:
            out.write(RECORD_SEPARATOR.join(row.csv_fields()) + "\n")
            count += 1
    return count


def contexts_2022(paper: unarxive2022.Paper, settings: ContextSettings) -> Iterator[ContextRow]:
    """Contexts of one unarXive 2022 paper, per paragraph; candidates are references with a shipped link."""
    linked = [r for r in paper.references if r["linked_mag_id"] or r["linked_openalex_id"]]
    id_map = {r["ref_id"]: (r["linked_mag_id"], r["linked_arxiv_id"]) for r in linked}
    targets = [
        (
            (rank,),
            Candidate(r["ref_id"], r["linked_mag_id"], r["linked_arxiv_id"], None, paper.arxiv_id),
        )
        for rank, r in enumerate(linked)
    ]
    for paragraph in paper.paragraphs:
        present = {m["ref_id"] for m in paragraph["markers"]}
        wanted = [(order, c) for order, c in targets if c.uuid in present]
        if wanted:
            yield from text_contexts(
                paragraph["text"],
                [((paragraph["paragraph_index"], *order), c) for order, c in wanted],
                id_map,
                settings,
                UNARXIVE_2022,
            )
