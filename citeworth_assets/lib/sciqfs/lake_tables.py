"""ROUGE-SciQFS in the lake: the parsed S2ORC papers read back as :class:`ParsedPaper`, and the schemas of the
tables the graph writes (the clean tables' schemas are those of :mod:`tables`).

Citing papers are the papers of ``s2orc_paragraphs`` (the candidates of every shard), read shard by shard in the
order ``s2orc_duplicate_papers`` keeps (release, shard, line), so a paper found in several shards contributes its
first parse and the later ones are counted as ``duplicate_paper``. Their title and abstract come from
``s2orc_papers``. A bibliography entry's title and abstract come from the cited-abstract catalogue
(``citesum_cited_abstracts``: every paper linked from a citation span, with its metadata), through the span's
``linked_paper_id``; the lake keeps no bibliography titles, so unlinked entries have neither and stay private to
their paper (they give no example: no query).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import groupby
from pathlib import Path

import duckdb
import pyarrow as pa

from citeworth_assets.lib import lake
from citeworth_assets.lib.sciqfs.release import RELEASE_SCHEMA
from citeworth_assets.lib.sciqfs.s2orc_source import (
    SentenceBounds,
    paper_from_paragraphs,
)
from citeworth_assets.lib.sciqfs.tables import ParsedPaper

CATALOGUE = "citesum_cited_abstracts"
EXAMPLES = "sciqfs_examples"

EXAMPLE_SCHEMA = RELEASE_SCHEMA
BASELINE_SCHEMA = pa.schema(
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
BASELINE_EXAMPLE_SCHEMA = pa.schema(
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


def cited_papers(lake_root: Path) -> dict[str, dict]:
    """paper_id -> {title, abstract} of every linked cited paper (empty before the catalogue exists)."""
    if not lake.has_data(lake_root, CATALOGUE):
        return {}
    table = lake.read_partition(lake_root, CATALOGUE, columns=["paper_id", "title", "abstract"])
    return {row["paper_id"]: row for row in table.to_pylist()}


def _citing_metadata(lake_root: Path) -> dict[str, tuple[str | None, str | None]]:
    if not lake.has_data(lake_root, "s2orc_papers"):
        return {}
    sql = f"SELECT paper_id, title, abstract FROM read_parquet('{lake.table_glob(lake_root, 's2orc_papers')}') ORDER BY release, shard, line"
    found: dict[str, tuple] = {}
    with duckdb.connect() as connection:
        for paper_id, title, abstract in connection.execute(sql).fetchall():
            found.setdefault(paper_id, (title, abstract))
    return found


def _paragraph_batches(lake_root: Path) -> Iterator[dict]:
    sql = f"""
        SELECT paper_id, paragraph_index, text, cite_spans, release, shard, source_file, line
        FROM read_parquet('{lake.table_glob(lake_root, "s2orc_paragraphs")}')
        ORDER BY release, shard, line, paragraph_index
    """
    with duckdb.connect() as connection:
        reader = connection.sql(sql).to_arrow_reader(batch_size=5_000)
        for batch in reader:
            yield from batch.to_pylist()


def papers_from_lake(lake_root: Path, split: SentenceBounds, cited: dict[str, dict]) -> Iterator[ParsedPaper]:
    """Every citing paper of the lake, one at a time, with its references' titles and abstracts from ``cited``."""
    if not lake.has_data(lake_root, "s2orc_paragraphs"):
        return
    metadata = _citing_metadata(lake_root)
    abstracts = {paper_id: row["abstract"] for paper_id, row in cited.items() if row["abstract"]}
    rows = _paragraph_batches(lake_root)
    for (paper_id, _, _, _), group in groupby(rows, key=lambda r: (r["paper_id"], r["release"], r["shard"], r["line"])):
        paragraphs = list(group)
        titles = {
            span["ref_id"]: cited[span["linked_paper_id"]]["title"]
            for row in paragraphs
            for span in row["cite_spans"] or []
            if span["ref_id"] and span["linked_paper_id"] in cited
        }
        title, abstract = metadata.get(paper_id, (None, None))
        first = paragraphs[0]
        source = f"{first['shard']}/{first['source_file']}:{first['line']}"
        yield paper_from_paragraphs(paper_id, paragraphs, split, abstracts, titles, title, abstract, source)


def read_tables(lake_root: Path):
    """The three clean tables back from the lake."""
    from citeworth_assets.lib.sciqfs.tables import SciqfsTables

    return SciqfsTables(
        *(lake.read_partition(lake_root, f"sciqfs_{name}") for name in ("papers", "references", "citations"))
    )
