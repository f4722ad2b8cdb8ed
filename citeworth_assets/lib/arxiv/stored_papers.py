"""Papers of one dump file as the lake stores them, so that contexts are computed without reading the dump again.

unarXive 2020 texts are rebuilt from their paragraphs (:func:`unarxive2020.text_from_paragraphs`); unarXive 2022
papers come back as :class:`unarxive2022.Paper` with their paragraphs and references. Rows are read batch by batch
in stored order (paper by paper), so one paper is held at a time.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import groupby
from pathlib import Path

from citeworth_assets.lib import lake
from citeworth_assets.lib.arxiv import unarxive2020, unarxive2022
from citeworth_assets.lib.arxiv.schemas import DUMP_FILE_DIMENSION as DIMENSION


def _rows(lake_root: Path, table: str, key: str) -> Iterator[dict]:
    if lake.partition_dir(lake_root, table, key, DIMENSION).is_dir():
        yield from lake.iter_partition_rows(lake_root, table, key, dimension=DIMENSION)


def refs_db_id(row: dict) -> str:
    """refs.db's form of a 2020 paper's arXiv id (its file name: ``hep-th9901001``) from a stored row."""
    return unarxive2020.arxiv_id_of(Path(row["member"] or row["source_file"]).name)


def papers_2020(lake_root: Path, key: str) -> dict[str, dict]:
    """refs.db id -> the stored paper row (paper id, citing MAG id, line count) of a 2020 partition."""
    return {refs_db_id(row): row for row in _rows(lake_root, "arxiv_papers", key)}


def texts_2020(lake_root: Path, key: str, papers: dict[str, dict], wanted: set[str]) -> Iterator[tuple[str, str]]:
    """(refs.db id, text) of the wanted papers, in stored order."""
    for _, group in groupby(_rows(lake_root, "arxiv_paragraphs", key), key=refs_db_id):
        paragraphs = list(group)
        arxiv_id = refs_db_id(paragraphs[0])
        if arxiv_id in wanted and arxiv_id in papers:
            row = papers[arxiv_id]
            yield (
                arxiv_id,
                unarxive2020.text_from_paragraphs(paragraphs, row.get("text_lines"), row.get("whitespace_lines")),
            )


def papers_2022(lake_root: Path, key: str) -> Iterator[unarxive2022.Paper]:
    """The 2022 papers of a partition with their stored paragraphs and references, one at a time."""
    paragraphs = groupby(_rows(lake_root, "arxiv_paragraphs", key), key=lambda r: r["paper_id"])
    references = groupby(_rows(lake_root, "arxiv_references", key), key=lambda r: r["citing_paper_id"])
    next_paragraphs, next_references = next(paragraphs, None), next(references, None)
    for row in _rows(lake_root, "arxiv_papers", key):
        paper = unarxive2022.Paper(row["paper_id"], row, [], [])
        if next_paragraphs is not None and next_paragraphs[0] == row["paper_id"]:
            paper.paragraphs = list(next_paragraphs[1])
            next_paragraphs = next(paragraphs, None)
        if next_references is not None and next_references[0] == row["paper_id"]:
            paper.references = list(next_references[1])
            next_references = next(references, None)
        yield paper
