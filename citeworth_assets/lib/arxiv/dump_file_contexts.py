"""Citation contexts of one unarXive dump file, in ``arxiv_contexts``' row shape (Saier 2019 §4.2.5).

Two sources of candidates: the published one (bibliography items the input ships a MAG/OpenAlex link for, in the
published order, :func:`context_rows`), and every item linked by the input or found by the resolver
(:func:`resolver_linked_rows`, contexts in text order). The ``contexts`` command reads the dump
(:func:`context_rows`); the asset computes the same rows from the lake's stored papers (:func:`lake_context_rows`),
never reading or unpacking the dump again but for the 2020 candidates in ``refs.db``.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from citeworth_assets.lib import lake
from citeworth_assets.lib.arxiv import stored_papers, unarxive2020, unarxive2022
from citeworth_assets.lib.arxiv.catalogue_lookup import openalex_mag_ids
from citeworth_assets.lib.arxiv.context_extraction import (
    contexts_2020,
    contexts_2022,
    linked_contexts,
    published_contexts,
    reference_links,
)
from citeworth_assets.lib.arxiv.context_windows import UNARXIVE_2020 as UNARXIVE_2020_RULES
from citeworth_assets.lib.arxiv.context_windows import UNARXIVE_2022 as UNARXIVE_2022_RULES
from citeworth_assets.lib.arxiv.context_windows import ContextWindow
from citeworth_assets.lib.arxiv.dump_files import UNARXIVE_2020, DumpFile, is_converted
from citeworth_assets.lib.arxiv.schemas import DUMP_FILE_DIMENSION
from citeworth_assets.lib.dump_root import followed_out
from citeworth_assets.lib.identifiers import short_openalex_id
from citeworth_assets.lib.read_issues import IssueLog


@contextmanager
def paper_folder(dump: DumpFile, root: Path | None = None) -> Iterator[Path]:
    """The folder of a 2020 dump's text files (a tarball's are unpacked into a temporary folder, with refs.db);
    nothing that leads out of ``root`` is unpacked."""
    if dump.path.is_dir():
        yield dump.path
        return
    with tempfile.TemporaryDirectory(prefix="unarxive_") as folder:
        log = IssueLog()  # the ingestion step counted these already
        for file in unarxive2020.iter_paper_files(dump.path, log, root):
            (Path(folder) / file.name).write_bytes(file.data)
        with unarxive2020.refs_db_path(dump.path, None, log, root) as refs:
            if refs is not None:
                (Path(folder) / "refs.db").write_bytes(refs.read_bytes())
        yield Path(folder)


def context_rows(
    dump: DumpFile, settings: ContextWindow, published_labels: bool, log: IssueLog, root: Path | None = None
) -> Iterator[dict]:
    """context_schema() rows of one dump file: markers of bibliography items with a shipped link, as published.
    No file of a folder that leads out of it and the dump root ``root`` is read."""
    if dump.release == UNARXIVE_2020:
        with paper_folder(dump, root) as folder:
            refs = folder / "refs.db"
            if not refs.is_file() or followed_out(refs, folder, root, log):
                return
            contexts = contexts_2020(folder, refs, settings, log, published_labels=published_labels, root=root)
            for row in contexts:
                yield row.as_row()
        return
    for paper in unarxive2022.iter_papers(dump.path, log):
        for row in contexts_2022(paper, settings, log):
            yield row.as_row()


def lake_context_rows(
    lake_root: Path,
    dump: DumpFile,
    key: str,
    settings: ContextWindow,
    published_labels: bool,
    log: IssueLog,
    root: Path | None = None,
) -> Iterator[dict]:
    """:func:`context_rows` from the lake's papers of partition ``key``: 2020 candidates and their order from
    refs.db (only this partition's papers kept), texts rebuilt from the stored paragraphs; 2022 papers with their
    stored paragraphs and references."""
    if dump.release == UNARXIVE_2020:
        papers = stored_papers.papers_2020(lake_root, key)
        with unarxive2020.refs_db_path(dump.path, None, log, root) as refs_db:
            if refs_db is None:
                return
            texts = lambda wanted: stored_papers.texts_2020(lake_root, key, papers, set(wanted))  # noqa: E731
            for row in published_contexts(
                refs_db, set(papers), texts, settings, log, published_labels=published_labels
            ):
                yield row.as_row()
        return
    for paper in stored_papers.papers_2022(lake_root, key):
        for row in contexts_2022(paper, settings, log):
            yield row.as_row()


def resolver_linked_rows(
    lake_root: Path, dump: DumpFile, key: str, settings: ContextWindow, log: IssueLog, dumps: Path | None = None
) -> Iterator[dict]:
    """context_schema() rows, from the lake's stored papers, for every item linked by the input (a shipped OpenAlex id
    gets its MAG id from the catalogue) or by the resolver
    (:func:`~citeworth_assets.lib.arxiv.context_extraction.linked_contexts`); in a file converted from LaTeX sources,
    also every item naming an arXiv id (no links are shipped there)."""
    columns = [
        "ref_id",
        "citing_paper_id",
        "citing_mag_id",
        "linked_mag_id",
        "linked_openalex_id",
        "linked_arxiv_id",
        "linked_doi",
        "arxiv_ids",
    ]
    references = list(lake.iter_partition_rows(lake_root, "arxiv_references", key, columns, DUMP_FILE_DIMENSION))
    resolutions = lake.iter_partition_rows(
        lake_root, "arxiv_resolutions", key, ["ref_id", "citing_paper_id", "work_id", "mag_id"], DUMP_FILE_DIMENSION
    )
    shipped_openalex = {short_openalex_id(r["linked_openalex_id"]) for r in references if r["linked_openalex_id"]}
    openalex_mag = openalex_mag_ids(lake_root, shipped_openalex)
    links = reference_links(references, resolutions, openalex_mag=openalex_mag, arxiv_only=is_converted(dump))
    citing_mag = {r["citing_paper_id"]: r["citing_mag_id"] for r in references if r["citing_mag_id"]}
    if dump.release == UNARXIVE_2020:
        papers = stored_papers.papers_2020(lake_root, key)
        stored = stored_papers.texts_2020(lake_root, key, papers, set(papers))
        texts = ((arxiv_id, citing_mag.get(arxiv_id), text) for arxiv_id, text in stored)
        rules = UNARXIVE_2020_RULES
    else:
        texts = (
            (paragraph["paper_id"], None, paragraph["text"])
            for paper in stored_papers.papers_2022(lake_root, key)
            for paragraph in paper.paragraphs
        )
        rules = UNARXIVE_2022_RULES
    for row in linked_contexts(texts, links, settings, rules):
        yield row.as_row()
