"""Issue 33, counted once: a paper repeated across S2ORC shards is listed in s2orc_duplicate_papers with the first
kept, and the warehouse views and the candidate sample count it once. Uses the damage suite's clean dump and its
ingestion (tests/test_damage.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pytest
from test_damage import RELEASE, ingest, lines_of, paper_id, write_lines

from citeworth_assets.lib import domains, lake, warehouse
from citeworth_assets.lib.citeworth.dataset import sample_candidate_papers
from citeworth_assets.lib.duplicates import write_duplicate_papers
from citeworth_assets.lib.s2orc.records import paper_schema
from citeworth_assets.lib.s2orc.schema import DUPLICATES
from citeworth_assets.lib.sql_models import load_models
from citeworth_assets.samples.s2orc import generate_sample_dump

SQL_MODELS = Path(__file__).resolve().parents[1] / "dbt_like_sql"


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    root = tmp_path_factory.mktemp("repeats")
    generate_sample_dump(root / "dump", papers=60, shards=2, seed=5)
    return root / "dump", None


def test_papers_repeated_across_shards_are_listed_with_the_first_kept(clean, tmp_path):
    """A paper in two shards (S2ORC's own releases repeat a few paper_ids across shards, and a re-download can put
    a shard's lines into another): listed with the first kept, and counted once by the warehouse views."""
    clean_dump, _ = clean
    dump = tmp_path / "dump"
    shutil.copytree(clean_dump, dump)
    repeated = lines_of(dump, "metadata_0.jsonl.gz")[0]
    write_lines(dump, "metadata_1.jsonl.gz", lines_of(dump, "metadata_1.jsonl.gz") + [repeated])
    parse = next(line for line in lines_of(dump, "pdf_parses_0.jsonl.gz") if paper_id(line) == paper_id(repeated))
    write_lines(dump, "pdf_parses_1.jsonl.gz", lines_of(dump, "pdf_parses_1.jsonl.gz") + [parse])
    ingest(dump, tmp_path / "lake")
    assert write_duplicate_papers(tmp_path / "lake", DUPLICATES) == 2
    rows = lake.read_partition(tmp_path / "lake", "s2orc_duplicate_papers").to_pylist()
    assert [(row["paper_id"], row["shard"], row["kept"]) for row in rows] == [
        (paper_id(repeated), f"{RELEASE}_0", True),
        (paper_id(repeated), f"{RELEASE}_1", False),
    ]
    with duckdb.connect() as connection:
        warehouse_model(connection, tmp_path / "lake", "s2orc.papers")
        warehouse_model(connection, tmp_path / "lake", "s2orc.paragraphs")
        papers = connection.execute("SELECT count(*), count(DISTINCT paper_id) FROM s2orc.papers").fetchall()
        assert papers == [(60, 60)]
        (stored,), (counted,) = (
            connection.execute(f"SELECT count(*) FROM {name} WHERE paper_id = ?", [paper_id(repeated)]).fetchone()
            for name in ("lake.s2orc_paragraphs", "s2orc.paragraphs")
        )
        assert stored == 2 * counted > 0  # read from both shards, counted from the kept one
    for shard in (f"{RELEASE}_0", f"{RELEASE}_1"):  # every paper a candidate: the rule comparison's sample
        papers = lake.read_partition(tmp_path / "lake", "s2orc_papers", shard)
        lake.write_partition(tmp_path / "lake", "s2orc_candidate_papers", paper_schema(), papers.to_pylist(), shard)
    sampled = [paper.paper_id for paper in sample_candidate_papers(tmp_path / "lake", 1000)]
    assert len(sampled) == len(set(sampled)) == 60


def warehouse_model(connection, lake_root: Path, relation: str) -> None:
    """A warehouse SQL model over the lake tables it reads, as the warehouse asset creates them."""
    model = next(m for m in load_models(SQL_MODELS) if m.relation == relation)
    tables = domains.lake_tables()
    for upstream in sorted(model.upstream):
        table = upstream.split(".")[1]
        warehouse.create_lake_view(
            connection, upstream, lake_root, table, tables[table].schema, tables[table].partition_column
        )
    warehouse.create_relation(connection, relation, model.sql, model.materialized, model.description)
