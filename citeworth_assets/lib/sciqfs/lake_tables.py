"""ROUGE-SciQFS in the lake: its tables' names and schemas, each partition's tables and examples written and read
back, and the examples of every partition streamed to the release.

The clean tables (``sciqfs_papers``, ``sciqfs_references``, ``sciqfs_citations``) and ``sciqfs_examples`` are
partitioned like their input: ``shard=<key>`` for an S2ORC shard, ``dump_file=<key>`` for a unarXive dump file.
The release gathers them: ``sciqfs_splits`` (the split of every citing paper) and ``sciqfs_statistics`` (Table 1).
``sciqfs_baselines`` and ``sciqfs_baseline_examples`` hold one folder per baselines asset (``baselines=rankers``,
``baselines=trained``). An examples partition keeps the settings it was built with in its Parquet metadata, so
the release card states them and a release never mixes two.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path

from citeworth_assets.lib import lake
from citeworth_assets.lib.arxiv.schemas import DUMP_FILE_DIMENSION
from citeworth_assets.lib.duckdb_limits import bounded
from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.read_issues import IssueLog
from citeworth_assets.lib.sciqfs.examples import Example
from citeworth_assets.lib.sciqfs.release import example_row, example_schema
from citeworth_assets.lib.sciqfs.tables import (
    ParsedPaper,
    SciqfsTables,
    TableBuilder,
    citations_schema,
    papers_schema,
    references_schema,
)

pa = lazy_module("pyarrow")
pq = lazy_module("pyarrow.parquet")

S2ORC_DIMENSION = lake.SHARD_DIMENSION
ARXIV_DIMENSION = DUMP_FILE_DIMENSION
DIMENSIONS = (S2ORC_DIMENSION, ARXIV_DIMENSION)  # the release's order: S2ORC shards, then unarXive dump files
CLEAN_TABLES = {
    "sciqfs_papers": papers_schema,
    "sciqfs_references": references_schema,
    "sciqfs_citations": citations_schema,
}
EXAMPLES = "sciqfs_examples"
SPLITS = "sciqfs_splits"
STATISTICS = "sciqfs_statistics"
BASELINES = "sciqfs_baselines"
BASELINE_EXAMPLES = "sciqfs_baseline_examples"
BASELINES_DIMENSION = "baselines"
SETTINGS_KEY = b"sciqfs_settings"


@cache
def split_schema() -> pa.Schema:
    return pa.schema([("paper_id", pa.string()), ("split", pa.string())])


@cache
def baseline_schema() -> pa.Schema:
    return pa.schema(
        [
            ("classifier", pa.string()),
            ("embeddings", pa.string()),
            ("status", pa.string()),  # "ok", or why the row was not run (an embedding not installed)
            ("examples", pa.int64()),
            ("evaluated", pa.int64()),
            ("single_class", pa.int64()),  # test examples with one class: no AP / ROC AUC, reported here
            ("average_precision_mean", pa.float64()),
            ("average_precision_std", pa.float64()),
            ("average_precision_sem", pa.float64()),
            ("roc_auc_mean", pa.float64()),
            ("roc_auc_std", pa.float64()),
            ("roc_auc_sem", pa.float64()),
            ("prevalence", pa.float64()),  # mean share of relevant sentences: a random ranking's expected AP
            ("run_id", pa.string()),
            ("dataset_version", pa.string()),
        ]
    )


@cache
def baseline_example_schema() -> pa.Schema:
    return pa.schema(
        [
            ("classifier", pa.string()),
            ("embeddings", pa.string()),
            ("example_id", pa.string()),
            ("sentences", pa.int64()),
            ("positives", pa.int64()),
            ("single_class", pa.bool_()),
            ("average_precision", pa.float64()),
            ("roc_auc", pa.float64()),
        ]
    )


def drop_unpartitioned(lake_root: Path, tables) -> list[str]:
    """Remove the single ``all`` folder an unpartitioned build of these tables left (before partitions and the
    baselines' folders existed), so that no view or release reads it beside the partitions; the tables dropped."""
    dropped = []
    for table in tables:
        if lake.partition_dir(lake_root, table).is_dir():
            lake.drop_partition(lake_root, table)
            dropped.append(table)
    return dropped


def write_tables(lake_root: Path, papers: Iterable[ParsedPaper], log: IssueLog, key: str, dimension: str) -> dict:
    """The three clean tables of one partition, papers and citations streamed as they come (the references once
    every paper is in); rows written per table and the references that have an abstract."""
    builder = TableBuilder(log)
    with (
        lake.PartitionWriter(lake_root, "sciqfs_papers", papers_schema(), key, dimension, batch_rows=200) as paper_rows,
        lake.PartitionWriter(lake_root, "sciqfs_citations", citations_schema(), key, dimension) as citation_rows,
    ):
        for paper in papers:
            row, citations = builder.add(paper)
            if row is not None:
                paper_rows.write(row)
                citation_rows.write_all(citations)
        references = builder.reference_rows()
        written = lake.write_partition(lake_root, "sciqfs_references", references_schema(), references, key, dimension)
    return {
        "sciqfs_papers": paper_rows.rows_written,
        "sciqfs_references": written,
        "sciqfs_citations": citation_rows.rows_written,
        "references_with_abstract": sum(1 for row in references if row["abstract"]),
    }


def read_tables(lake_root: Path, key: str, dimension: str) -> SciqfsTables:
    """The three clean tables of one partition back from the lake."""
    return SciqfsTables(*(lake.read_partition(lake_root, name, key, dimension=dimension) for name in CLEAN_TABLES))


def write_examples(
    lake_root: Path, examples: Iterable[Example], key: str, dimension: str, settings: dict[str, object]
) -> int:
    """One partition of ``sciqfs_examples`` (streamed), its build ``settings`` in the Parquet metadata."""
    schema = example_schema().with_metadata({SETTINGS_KEY: json.dumps(settings, sort_keys=True)})
    with lake.PartitionWriter(lake_root, EXAMPLES, schema, key, dimension, batch_rows=100) as out:
        for example in examples:
            out.write(example_row(example))
    return out.rows_written


def example_partitions(lake_root: Path) -> list[Path]:
    """Every partition folder of ``sciqfs_examples``: S2ORC shards, then dump files, each sorted by key."""
    folder = lake_root / EXAMPLES
    return [
        path
        for dimension in DIMENSIONS
        for path in sorted(folder.glob(f"{dimension}=*"))
        if path.is_dir() and any(path.glob("*.parquet"))
    ]


def example_settings(lake_root: Path) -> list[dict]:
    """The distinct build settings of the examples partitions."""
    found = []
    for folder in example_partitions(lake_root):
        for path in sorted(folder.glob("*.parquet")):
            metadata = pq.read_schema(path).metadata or {}
            settings = json.loads(metadata[SETTINGS_KEY]) if SETTINGS_KEY in metadata else {}
            if settings not in found:
                found.append(settings)
    return found


def iter_examples(lake_root: Path, batch_rows: int = 200) -> Iterator[dict]:
    """Every example row of every partition, a batch at a time (the release never holds them all)."""
    for folder in example_partitions(lake_root):
        for path in sorted(folder.glob("*.parquet")):
            for batch in pq.ParquetFile(path).iter_batches(batch_size=batch_rows, columns=example_schema().names):
                yield from batch.to_pylist()


def citing_paper_ids(lake_root: Path) -> list[str]:
    """The id of every citing paper of every partition (the population the split is drawn from)."""
    if not lake.has_data(lake_root, "sciqfs_papers"):
        return []
    path = lake.table_glob(lake_root, "sciqfs_papers")
    with bounded() as connection:
        return [
            row[0] for row in connection.execute("SELECT DISTINCT paper_id FROM read_parquet(?)", [path]).fetchall()
        ]
