"""A release's ``papers`` and ``abstracts`` staged once into the lake, sorted by corpus id, out of core.

The real release holds about 200M ``papers`` rows (45 GB gzipped): they are streamed record by record into
unsorted Parquet, then DuckDB sorts them by corpus id under its memory limit (spilling beyond it) into
``s2ag_papers/release=<key>/`` and ``s2ag_abstracts/release=<key>/``, row groups of :data:`ROW_GROUP_ROWS` with
min/max statistics. No process holds the release; each full-text partition then joins only its own corpus ids
(:mod:`.join`). A corpus id listed twice keeps its last row (files in name order, lines in order), as later
lines of a release replace earlier ones; the repeats are reported.

What was staged is recorded beside the tables (``s2ag_staged/<key>.json``: the files' names, sizes and
modification times), so that the dump sensor can tell a release whose metadata is staged from one still waiting.
"""

from __future__ import annotations

import json
import shutil
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from citeworth_assets.lib import lake
from citeworth_assets.lib.duckdb_limits import DuckDbLimits
from citeworth_assets.lib.jsonl import iter_json_records
from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.read_issues import IssueLog, ReadIssue
from citeworth_assets.lib.s2ag import layout
from citeworth_assets.lib.s2ag.metadata import (
    DEFAULT_FIELD_SOURCES,
    abstract_row,
    paper_row,
    staged_abstract_schema,
    staged_paper_schema,
)

pa = lazy_module("pyarrow")
pq = lazy_module("pyarrow.parquet")

RELEASE_DIMENSION = "release"
PAPERS, ABSTRACTS, MARKERS = "s2ag_papers", "s2ag_abstracts", "s2ag_staged"
ROW_GROUP_ROWS = 20_000  # a thread holds one row group while scanning: memory per thread, whatever the rows


def _rows(paths: list[Path], log: IssueLog, make) -> Iterator[dict]:
    for path in paths:
        for number, offset, _size, record in iter_json_records(path, log, repair=True):

            def report(kind: str, message: str, path=path, number=number, offset=offset) -> None:
                log.add(ReadIssue(str(path), number, offset, kind, message))

            row = make(record, report)
            if row is not None:
                row["source_file"], row["line"] = path.name, number
                yield row


def signature(paths: list[Path]) -> list[list]:
    return [[path.parent.name, path.name, path.stat().st_size, int(path.stat().st_mtime)] for path in paths]


def staged_signature(lake_root: Path, release: str) -> list | None:
    marker = Path(lake_root) / MARKERS / f"{layout.release_key(release)}.json"
    return json.loads(marker.read_text()) if marker.is_file() else None


@dataclass
class Staged:
    release: str
    papers: int
    abstracts: int
    repeated: int


def _sorted_copy(
    lake_root: Path, table: str, schema: pa.Schema, rows: Iterator[dict], key: str, temp: Path
) -> tuple[int, int]:
    """Stream rows to unsorted Parquet, then write the lake partition sorted by corpus id (the last row of an id
    kept); (rows kept, rows left out as repeats)."""
    unsorted = temp / f"{table}.parquet"
    with pq.ParquetWriter(unsorted, schema, compression="zstd") as writer:
        batch = []
        for row in rows:
            batch.append(row)
            if len(batch) >= 20_000:
                writer.write_table(pa.Table.from_pylist(batch, schema=schema))
                batch = []
        writer.write_table(pa.Table.from_pylist(batch, schema=schema))
    target = lake.partition_dir(lake_root, table, key, RELEASE_DIMENSION)
    staging = Path(lake_root) / lake.STAGING / f"{table}.{key}.{uuid.uuid4().hex}"
    staging.mkdir(parents=True)
    try:
        connection = DuckDbLimits.from_environment().connect(temp / "duckdb")
        try:
            connection.execute(
                f"""COPY (SELECT * FROM read_parquet($source)
                          QUALIFY row_number() OVER (PARTITION BY corpusid ORDER BY source_file DESC, line DESC) = 1
                          ORDER BY corpusid)
                    TO $target (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE {ROW_GROUP_ROWS})""",
                {"source": str(unsorted), "target": str(staging / "part-0.parquet")},
            )
            rows = connection.execute("SELECT count(*) FROM read_parquet($p)", {"p": str(unsorted)}).fetchone()[0]
            kept = connection.execute(
                "SELECT count(*) FROM read_parquet($p)", {"p": str(staging / "part-0.parquet")}
            ).fetchone()[0]
        finally:
            connection.close()
        lake.publish(staging, target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return kept, rows - kept


def stage_release(
    lake_root: Path, dumps: Path, release: str, log: IssueLog, sources: tuple[str, ...] = DEFAULT_FIELD_SOURCES
) -> Staged:
    """Stage one release's ``papers`` and ``abstracts`` (either may be absent: an empty table, reported)."""
    key = layout.release_key(release)
    paths = {dataset: layout.metadata_files(dumps, release, dataset) for dataset in layout.METADATA_DATASETS}
    temp = Path(lake_root) / lake.STAGING / f"s2ag_stage.{key}.{uuid.uuid4().hex}"
    temp.mkdir(parents=True)
    try:
        for dataset, found in paths.items():
            if not found:
                folder = Path(dumps) / layout.S2AG_FOLDER / release / dataset
                message = f"no {dataset} files: papers of this release get what their full text says"
                log.add(ReadIssue(str(folder), None, None, "missing_file", message))
        papers, repeated_papers = _sorted_copy(
            lake_root,
            PAPERS,
            staged_paper_schema(),
            _rows(paths["papers"], log, lambda record, report: paper_row(record, sources, report)),
            key,
            temp,
        )
        abstracts, repeated_abstracts = _sorted_copy(
            lake_root, ABSTRACTS, staged_abstract_schema(), _rows(paths["abstracts"], log, abstract_row), key, temp
        )
    finally:
        shutil.rmtree(temp, ignore_errors=True)
    for dataset, repeated in (("papers", repeated_papers), ("abstracts", repeated_abstracts)):
        if repeated:
            message = f"{repeated} corpus ids listed more than once; the last row of each kept"
            folder = str(Path(dumps) / layout.S2AG_FOLDER / release / dataset)
            log.add(ReadIssue(folder, None, None, "duplicate_corpusid", message))
    marker = Path(lake_root) / MARKERS / f"{key}.json"
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text(json.dumps(signature(paths["papers"] + paths["abstracts"])))
    return Staged(release, papers, abstracts, repeated_papers + repeated_abstracts)


def stage_all(
    lake_root: Path, dumps: Path, log: IssueLog, sources: tuple[str, ...] = DEFAULT_FIELD_SOURCES
) -> list[Staged]:
    """Stage every release under ``<dumps>/s2ag`` that holds full texts."""
    releases = sorted({file.release for file in layout.discover_files(dumps)})
    return [stage_release(lake_root, dumps, release, log, sources) for release in releases]
