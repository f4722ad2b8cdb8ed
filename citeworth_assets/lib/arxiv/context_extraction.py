"""Which bibliography items get citation contexts, and their extraction from whole papers (the window itself is
:mod:`citeworth_assets.lib.arxiv.context_windows`).

As unarXive's published script extracts them: the candidates (unarXive 2020) are the ``bibitem`` rows whose
``cited_mag_id`` is set (and, with ``min_citing_docs`` > 1, cited that often), in the order of the published query
(by cited MAG id; the same SQL is run here, so SQLite orders ties the same way). Each candidate's markers in its
citing paper's text give one context each; :mod:`citeworth_assets.lib.context_csv` writes them in the published CSV
format.

Here each paper is read once (not once per candidate) and its contexts are put back in the published
order when written. Differences from the published script, none of which changes its output on a
readable dump: a text that is not valid UTF-8 is decoded with replacements and counted (the script
stops), and a candidate whose citing paper has no text file is counted (the script skips it).

Beside it, :func:`linked_contexts` takes every item linked by any route (:func:`reference_links`: the links shipped
in the input, else the resolver's).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Container, Iterable, Iterator
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from citeworth_assets.lib.arxiv import unarxive2020, unarxive2022
from citeworth_assets.lib.arxiv.context_windows import (
    UNARXIVE_2020,
    UNARXIVE_2022,
    ContextRules,
    ContextWindow,
    SentenceWindows,
    adjacent_ids,
    group_adjacent_ids,
    marker_context,
    punkt_tokenizer,
    replace_placeholders,
)
from citeworth_assets.lib.dump_root import followed_out
from citeworth_assets.lib.identifiers import short_openalex_id
from citeworth_assets.lib.read_issues import IssueLog, ReadIssue

if TYPE_CHECKING:
    from nltk.tokenize.punkt import PunktSentenceTokenizer


class Candidate(NamedTuple):
    uuid: str
    cited_mag_id: str | None
    cited_arxiv_id: str | None
    citing_mag_id: str | None
    citing_arxiv_id: str | None
    cited_openalex_id: str | None = None  # unarXive 2022's shipped link (short form, W123)
    cited_doi: str | None = None


def _text(value):
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else value


def iter_candidates(
    refs: unarxive2020.RefsDb, min_citing_docs: int = 1, log: IssueLog | None = None
) -> Iterator[Candidate]:
    """The published candidate query, run as it was written (its order included), streamed from SQLite. A cited MAG
    id that is not a number is no link: such a row is reported and left out (the published script would write it)."""
    query = (
        "select uuid, cited_mag_id, cited_arxiv_id, citing_mag_id, citing_arxiv_id from bibitem"
        " where cited_mag_id in (select cited_mag_id from bibitem group by cited_mag_id"
        f" having count(uuid) > {int(min_citing_docs) - 1}) order by cited_mag_id"
    )
    log = log if log is not None else IssueLog()
    path = str(refs.path)
    try:
        for row in refs.connection.execute(query):
            candidate = Candidate(*(_text(v) for v in row))
            cited = unarxive2020.mag_id(candidate.cited_mag_id, "cited_mag_id", candidate.uuid, path, log)
            if cited is not None:
                citing = unarxive2020.mag_id(candidate.citing_mag_id, "citing_mag_id", candidate.uuid, path, log)
                yield candidate._replace(citing_mag_id=citing)
    except sqlite3.DatabaseError as error:
        log.add(ReadIssue(path, None, None, "corrupt_refs_db", f"reading stopped: {error}"))


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
    adjacent: list[tuple]  # (MAG id, arXiv id[, OpenAlex id, DOI]) of each adjacent citation
    text: str
    cited_openalex_id: str | None = None
    cited_doi: str | None = None

    def _adjacent(self, position: int) -> list:
        return [None if len(a) <= position or a[position] is None else str(a[position]) for a in self.adjacent]

    def as_row(self) -> dict:
        return {
            "citing_paper_id": self.citing_paper_id,
            "citing_mag_id": self.citing_mag_id,
            "ref_id": self.ref_id,
            "marker_start": self.marker_start,
            "cited_mag_id": self.cited_mag_id,
            "cited_arxiv_id": self.cited_arxiv_id,
            "adjacent_mag_ids": self._adjacent(0),
            "adjacent_arxiv_ids": self._adjacent(1),
            "text": self.text,
            "cited_openalex_id": self.cited_openalex_id,
            "cited_doi": self.cited_doi,
            "adjacent_openalex_ids": self._adjacent(2),
        }


def text_contexts(
    text: str,
    targets: Iterable[tuple[tuple, Candidate]],
    id_map: dict,
    settings: ContextWindow,
    rules: ContextRules,
    exact: bool = False,
    tokenizer: PunktSentenceTokenizer | None = None,
    report: Callable[[str, str], None] | None = None,
) -> Iterator[ContextRow]:
    """Contexts of the given candidates' markers in one text; ``id_map``: uuid -> (MAG id, arXiv id[, OpenAlex id,
    DOI]). With unarXive 2022's rules placeholders are replaced first and adjacency spans the whole group.
    ``report`` (kind, message) hears of a text too long for the sentence splitter in one piece."""
    if rules.placeholders:
        text = replace_placeholders(text)
    adjacency = group_adjacent_ids if rules.whole_groups else adjacent_ids
    tokenizer = tokenizer or punkt_tokenizer(settings.tokenizer)
    windows = SentenceWindows(text, tokenizer, exact=exact) if settings.unit == "sentences" else None
    if windows is not None and len(windows.blocks) > 1 and report is not None:
        report("long_text_split", f"{len(text)} characters split into {len(windows.blocks)} blocks for Punkt")
    for order, candidate in targets:
        marker = "{{cite:" + candidate.uuid + "}}"
        start, occurrence = text.find(marker), 0
        while start >= 0:
            end = start + len(marker)
            adjacent = adjacency(text, start, end, rules, id_map)
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
                candidate.cited_openalex_id,
                candidate.cited_doi,
            )
            start, occurrence = text.find(marker, end), occurrence + 1


def contexts_2020(
    papers: str | Path,
    refs_db: str | Path,
    settings: ContextWindow,
    log: IssueLog,
    *options,
    root: str | Path | None = None,
    **named,
) -> list[ContextRow]:
    """All contexts of a folder of unarXive 2020 papers, in the published order and grouping; ``options`` and
    ``named`` are :func:`published_contexts`'s (min_contexts, min_citing_docs, exact, published_labels, tokenizer).

    ``published_labels`` (rule set unarxive_2020) reproduces a defect of the published loop: a candidate
    whose citing paper has no text file is skipped without updating the current cited MAG id, so the
    contexts that follow, up to the next paper that has a file, are labelled with the cited MAG id of the
    candidate after the last one read, and grouped with it for the ``min_*`` filters. With ``False``
    (rule set unarxive_2020_corrected) every context carries its own bibitem's cited MAG id. A refs.db that
    cannot be read gives no contexts (reported); a text file leading out of the folder and the dump root
    ``root`` is not read.
    """
    papers = Path(papers)
    found: dict[str, bool] = {}

    class Present:  # a candidate's paper has a text file in the folder (one that does not lead out of the root)
        def __contains__(self, arxiv_id: str) -> bool:
            if arxiv_id not in found:
                path = papers / f"{arxiv_id}.txt"
                found[arxiv_id] = path.is_file() and not followed_out(path, papers, root, log)
            return found[arxiv_id]

    def texts(wanted: list[str]) -> Iterator[tuple[str, str, Callable | None]]:
        for arxiv_id in wanted:
            path = papers / f"{arxiv_id}.txt"
            lines = unarxive2020.decode_lines(path.read_bytes(), str(path), log, arxiv_id)
            yield arxiv_id, "\n".join(line for _, _, line in lines), _reporter(log, str(path), arxiv_id)

    return list(published_contexts(refs_db, Present(), texts, settings, log, *options, missing_folder=papers, **named))


def published_contexts(
    refs_db: str | Path,
    present: Container[str],
    texts: Callable[[list[str]], Iterable[tuple]],
    settings: ContextWindow,
    log: IssueLog,
    min_contexts: int = 1,
    min_citing_docs: int = 1,
    exact: bool = False,
    published_labels: bool = True,
    tokenizer: PunktSentenceTokenizer | None = None,
    missing_folder: Path | None = None,
) -> Iterator[ContextRow]:
    """The published contexts of the ``present`` papers (refs.db's citing ids), whose texts ``texts(ids)`` yields as
    ``(id, text)`` or ``(id, text, report)`` in the order asked: a partition's papers, whatever else a shared
    ``refs.db`` lists. A refs.db that cannot be read gives no contexts (reported).

    The candidate query runs twice, streamed from SQLite: first to find the present papers' candidates (only they
    are kept), then to replay the published loop's labelling and grouping over every candidate in order. A
    candidate of a paper not present is counted as ``citing_paper_missing`` when ``missing_folder`` names the folder
    that should have held it (the published run's view); a partition of a shared refs.db does not count them.
    """
    refs = unarxive2020.open_refs_db(refs_db, log)
    if refs is None:
        return
    try:
        by_paper: dict[str, list] = {}
        missing: set[str] = set()
        for rank, candidate in enumerate(iter_candidates(refs, min_citing_docs, log)):
            if candidate.citing_arxiv_id in present:
                by_paper.setdefault(candidate.citing_arxiv_id, []).append(((rank,), candidate))
            elif missing_folder is not None:
                missing.add(candidate.citing_arxiv_id)
        for arxiv_id in sorted(missing, key=str):
            path = missing_folder / f"{arxiv_id}.txt"
            log.add(ReadIssue(str(path), None, None, "citing_paper_missing", "bibitems of a paper without text"))
        id_map = {c.uuid: (c.cited_mag_id, c.cited_arxiv_id) for targets in by_paper.values() for _, c in targets}
        by_rank: dict[int, list[ContextRow]] = {}
        for arxiv_id, text, *report in texts(sorted(by_paper, key=str)):
            rows = text_contexts(
                text, by_paper[arxiv_id], id_map, settings, UNARXIVE_2020, exact, tokenizer, *report[:1]
            )
            for row in rows:
                by_rank.setdefault(row.order[0], []).append(row)
        groups = _published_groups(iter_candidates(refs, min_citing_docs), set(by_paper), by_rank, published_labels)
        for group in groups:
            if _kept(group, min_contexts, min_citing_docs):
                yield from group
    finally:
        refs.close()


def _reporter(log: IssueLog, path: str, paper_id: str | None, line: int | None = None) -> Callable[[str, str], None]:
    return lambda kind, message: log.add(ReadIssue(path, line, None, kind, message, paper_id))


def _kept(group: list[ContextRow], min_contexts: int, min_citing_docs: int) -> bool:
    return len(group) >= min_contexts and len({row.ref_id for row in group}) >= min_citing_docs


def _published_groups(candidates, present, by_rank, published_labels: bool) -> Iterator[list[ContextRow]]:
    """The published loop over candidates (streamed, in order): which contexts form a group and which cited MAG id
    they carry."""
    if not published_labels:
        rows = [row for rank in sorted(by_rank) for row in sorted(by_rank[rank], key=lambda r: r.order)]
        for _, group in groupby(rows, key=lambda row: row.cited_mag_id):
            yield list(group)
        return
    stream = iter(candidates)
    index, item = 0, next(stream, None)
    current = item.cited_mag_id if item is not None else None  # the loop's ctd_mag_id
    bag = current
    while item is not None:
        group: list[ContextRow] = []
        while current == bag and item is not None:
            if item.citing_arxiv_id in present:
                for row in sorted(by_rank.pop(index, []), key=lambda r: r.order):
                    row.cited_mag_id = current
                    group.append(row)
            # published: a candidate without text is skipped without updating ``current``
            updates = item.citing_arxiv_id in present
            index, item = index + 1, next(stream, None)
            if updates and item is not None:
                current = item.cited_mag_id
        if item is not None:
            bag = item.cited_mag_id
        yield group


def contexts_2022(
    paper: unarxive2022.Paper, settings: ContextWindow, log: IssueLog | None = None
) -> Iterator[ContextRow]:
    """Contexts of one unarXive 2022 paper, per paragraph; candidates are references with a shipped link (MAG or
    OpenAlex id), which each context carries with the DOI shipped for the reference."""
    where = paper.row["source_file"], paper.row["line"]
    report = _reporter(log, where[0], paper.arxiv_id, where[1]) if log is not None else None
    linked = [r for r in paper.references if r["linked_mag_id"] or r["linked_openalex_id"]]
    links = {
        r["ref_id"]: (
            r["linked_mag_id"],
            r["linked_arxiv_id"],
            short_openalex_id(r["linked_openalex_id"]),
            r["linked_doi"],
        )
        for r in linked
    }
    targets = [
        (
            (rank,),
            Candidate(
                r["ref_id"], links[r["ref_id"]][0], links[r["ref_id"]][1], None, paper.arxiv_id, *links[r["ref_id"]][2:]
            ),
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
                links,
                settings,
                UNARXIVE_2022,
                report=report,
            )


# -- every linked item (an addition beside the published rule, selected by configuration) ----------------------------
# The published extraction takes only the items the input ships a MAG id for. With the works catalogue, the resolver
# links more items (and unarXive 2022's OpenAlex-only links gain a MAG id): contexts for every linked item, with the
# same window and marker rules, in the text's order (paper by paper, markers by position).

Link = tuple[str | None, str | None, str | None, str | None]  # cited MAG, arXiv, OpenAlex id and DOI


def reference_links(
    references: Iterable[dict],
    resolutions: Iterable[dict],
    use_resolver: bool = True,
    openalex_mag: dict | None = None,
    arxiv_only: bool = False,
) -> dict:
    """``{citing paper id: {ref id: (MAG id, arXiv id, OpenAlex id, DOI)}}``: the shipped MAG id, else the MAG id the
    catalogue gives a shipped OpenAlex id (``openalex_mag``: short OpenAlex id -> MAG id), else (with ``use_resolver``)
    the MAG id of the work the resolver found; the arXiv id shipped, else the first one in the string; the shipped
    OpenAlex id and DOI. An item with neither a MAG nor an OpenAlex id is left out, unless ``arxiv_only`` and it names
    an arXiv id: papers converted from LaTeX sources ship no links, and then have contexts without a works catalogue."""
    resolved = {(r["citing_paper_id"], r["ref_id"]): r.get("mag_id") for r in resolutions if r.get("work_id")}
    openalex_mag = openalex_mag or {}
    links: dict[str, dict[str, Link]] = {}
    for ref in references:
        key = (ref["citing_paper_id"], ref["ref_id"])
        mag = (
            ref.get("linked_mag_id")
            or openalex_mag.get(short_openalex_id(ref.get("linked_openalex_id")))
            or (resolved.get(key) if use_resolver else None)
        )
        openalex = short_openalex_id(ref.get("linked_openalex_id"))
        arxiv = ref.get("linked_arxiv_id") or next(iter(ref.get("arxiv_ids") or []), None)
        if not (mag or openalex or (arxiv_only and arxiv)):
            continue
        link = (str(mag) if mag else None, arxiv, openalex, ref.get("linked_doi"))
        links.setdefault(ref["citing_paper_id"], {})[ref["ref_id"]] = link
    return links


def linked_contexts(
    texts: Iterable[tuple[str, str | None, str]], links: dict, settings: ContextWindow, rules: ContextRules
) -> Iterator[ContextRow]:
    """Contexts of ``(citing paper id, citing MAG id, text)`` items for the markers of their linked references."""
    for order, (citing, citing_mag, text) in enumerate(texts):
        paper_links = links.get(citing) or {}
        if not paper_links:
            continue
        seen: dict[str, int] = {}
        for match in rules.cite_pattern.finditer(text):
            if match.group(1) in paper_links:
                seen.setdefault(match.group(1), match.start())
        targets = [
            (
                (order, position),
                Candidate(ref_id, *paper_links[ref_id][:2], citing_mag, citing, *paper_links[ref_id][2:4]),
            )
            for ref_id, position in sorted(seen.items(), key=lambda item: item[1])
        ]
        rows = list(text_contexts(text, targets, paper_links, settings, rules))
        yield from sorted(rows, key=lambda row: row.marker_start)
