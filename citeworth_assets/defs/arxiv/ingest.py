"""unarXive ingestion, one partition per dump file: papers, paragraphs (text with marker positions, provenance) and
bibliography items, written in one pass over the file."""

import time
from contextlib import ExitStack
from pathlib import Path

import dagster as dg

from citeworth_assets.defs.arxiv.partitions import arxiv_dump_files
from citeworth_assets.defs.automation import follows_inputs
from citeworth_assets.defs.outputs import parquet_specs
from citeworth_assets.defs.read_issues import read_issue_metadata
from citeworth_assets.defs.sensing import input_version
from citeworth_assets.lib import lake
from citeworth_assets.lib.arxiv import unarxive2020, unarxive2022
from citeworth_assets.lib.arxiv.context_windows import MAX_SPLIT_CHARS
from citeworth_assets.lib.arxiv.dump_files import UNARXIVE_2020, DumpFile, converted_root, dump_issues, find_dump_file
from citeworth_assets.lib.arxiv.schemas import DUMP_FILE_DIMENSION as DIMENSION
from citeworth_assets.lib.arxiv.schemas import paper_schema, paragraph_schema, reference_schema
from citeworth_assets.lib.read_issues import IssueLog, ReadIssue
from citeworth_assets.resources import PlatformResource

ARXIV_ISSUES = "arxiv_read_issues"
# a dump file partition added without a run (a converted LaTeX source dump, Saier 2019 §4.2.3) is ingested
FOLLOWS_NEW_DUMP_FILES = follows_inputs()


def _long_text(text: str, row: dict, path: Path, log: IssueLog) -> None:
    """A text the sentence splitter takes in blocks (contexts near a block's edge may lose a sentence): counted."""
    if len(text) > MAX_SPLIT_CHARS:
        message = f"{len(text)} characters: split into blocks of at most {MAX_SPLIT_CHARS} for sentence splitting"
        log.add(ReadIssue(str(path), row["line"], row["byte_offset"], "long_text", message, row["paper_id"]))


def _first_time(seen: dict[str, str], row: dict, path: Path, log: IssueLog) -> bool:
    """Whether the file gives this paper for the first time; a repeat (a tarball with a member appended twice, a
    JSON-lines file concatenated from overlapping parts) is skipped and counted, as the S2ORC readers do."""
    where = row["member"] or (row["source_file"] if row["release"] == UNARXIVE_2020 else f"line {row['line']}")
    if row["paper_id"] not in seen:
        seen[row["paper_id"]] = where
        return True
    message = f"paper seen before in this dump file ({seen[row['paper_id']]}); skipped"
    log.add(ReadIssue(str(path), row["line"], row["byte_offset"], "duplicate_paper_id", message, row["paper_id"]))
    return False


def _read_2020(dump: DumpFile, root: Path, log: IssueLog, papers, paragraphs, references) -> None:
    with unarxive2020.refs_db_path(dump.path, None, log, root) as db:
        if db is None:
            log.add(ReadIssue(str(dump.path), None, None, "missing_refs_db", "no refs.db: markers cannot be checked"))
        refs = unarxive2020.open_refs_db(db, log) if db is not None else None
        try:
            citing, seen = set(), {}
            for paper in unarxive2020.iter_papers(dump.path, log, refs, root):
                if not _first_time(seen, paper.row, dump.path, log):
                    continue
                citing.add(paper.arxiv_id)
                _long_text(paper.text, paper.row, dump.path, log)
                papers.write(paper.row)
                paragraphs.write_all(paper.paragraphs)
            if refs is not None:  # this file's papers' items only: refs.db may be shared by many folders
                references.write_all(unarxive2020.iter_references(refs, log, citing=citing))
        finally:
            if refs is not None:
                refs.close()


def _read_2022(dump: DumpFile, root: Path, log: IssueLog, papers, paragraphs, references) -> None:
    seen = {}
    for paper in unarxive2022.iter_papers(dump.path, log):
        if not _first_time(seen, paper.row, dump.path, log):
            continue
        for paragraph in paper.paragraphs:
            _long_text(paragraph["text"], paper.row, dump.path, log)
        papers.write(paper.row)
        paragraphs.write_all(paper.paragraphs)
        references.write_all(paper.references)


@dg.multi_asset(
    specs=parquet_specs(
        "arxiv",
        {
            "arxiv_papers": (
                "arXiv papers of one unarXive dump file: normalised arXiv id, metadata (2022+), discipline, citing MAG "
                "id (2020, from refs.db), marker counts, provenance. Read issues of the file in arxiv_read_issues."
            ),
            "arxiv_paragraphs": (
                "Paragraph texts with their {{cite:...}} marker positions and provenance (file, tarball member, line, "
                "byte offset); 2020 paragraphs are blocks of non-blank lines."
            ),
            "arxiv_references": (
                "One row per bibliography item of the file's papers (refs.db bibitem or 2022 bib entry; a "
                "refs.db shared by many folders gives each folder its own papers' items): uuid/hash, citing "
                "paper, raw "
                "string, arXiv ids and DOIs found in it, and the links the input ships (kept to compare the resolver "
                "with)."
            ),
        },
        automation_condition=FOLLOWS_NEW_DUMP_FILES,
    ),
    partitions_def=arxiv_dump_files,
)
def arxiv_ingest(context: dg.AssetExecutionContext, citeworth: PlatformResource):
    settings, key = citeworth.settings, context.partition_key
    dumps = settings.require_dumps()
    dump = find_dump_file(dumps, key, converted_root(settings.data))
    log = IssueLog()
    for issue in dump_issues(dump):
        log.add(issue)
    read = _read_2020 if dump.release == UNARXIVE_2020 else _read_2022
    started = time.perf_counter()
    with ExitStack() as stack:
        papers, paragraphs, references = (
            stack.enter_context(lake.PartitionWriter(settings.lake, table, schema, key, DIMENSION))
            for table, schema in (
                ("arxiv_papers", paper_schema()),
                ("arxiv_paragraphs", paragraph_schema()),
                ("arxiv_references", reference_schema()),
            )
        )
        read(dump, dumps, log, papers, paragraphs, references)
    seconds = time.perf_counter() - started
    if log.total:
        context.log.warning(f"{dump.path}: {log.total} read issues {log.counts}")
    issues = read_issue_metadata(settings.lake, ARXIV_ISSUES, log, dump.release, key, DIMENSION, dumps)
    yield dg.MaterializeResult(
        asset_key="arxiv_papers",
        data_version=dg.DataVersion(input_version(dump)),  # the record of what was built: see defs/sensing.py
        metadata={
            "papers": papers.rows_written,
            "release": dump.release,
            "source_file": str(dump.path),
            "papers_per_second": round(papers.rows_written / seconds, 1) if seconds else None,
            **issues,
        },
    )
    yield dg.MaterializeResult(asset_key="arxiv_paragraphs", metadata={"paragraphs": paragraphs.rows_written})
    yield dg.MaterializeResult(asset_key="arxiv_references", metadata={"references": references.rows_written})
