"""Splits grouped by citing paper, Table 1 statistics and the JSONL + Parquet release."""

import json

import pyarrow.parquet as pq
import pytest

from citeworth_assets.lib.jsonl import IssueLog
from citeworth_assets.lib.sciqfs.augmentation import augment_examples
from citeworth_assets.lib.sciqfs.examples import build_examples, default_splitter
from citeworth_assets.lib.sciqfs.release import write_release
from citeworth_assets.lib.sciqfs.s2orc_source import paper_from_pdf_parse
from citeworth_assets.lib.sciqfs.sample import SampleSettings, generate_dump
from citeworth_assets.lib.sciqfs.splits import SplitSettings, assign_splits
from citeworth_assets.lib.sciqfs.statistics import dataset_statistics
from citeworth_assets.lib.sciqfs.tables import build_tables


@pytest.fixture(scope="module")
def examples():
    split = default_splitter()
    records, abstracts = generate_dump(SampleSettings(papers=20))
    log = IssueLog()
    tables = build_tables([paper_from_pdf_parse(r, split, abstracts, log) for r in records], log)
    return list(augment_examples(build_examples(tables, split)))


def test_no_paper_in_two_splits_and_splits_are_seeded(examples):
    split_of = assign_splits(e.paper_id for e in examples)
    assert set(split_of.values()) == {"train", "validation", "test"}
    seen = {}
    for example in examples:
        seen.setdefault(example.paper_id, set()).add(split_of[example.paper_id])
    assert all(len(splits) == 1 for splits in seen.values())
    assert assign_splits(reversed([e.paper_id for e in examples])) == split_of  # input order does not matter
    assert assign_splits(split_of, SplitSettings(seed=14)) != split_of
    assert sum(1 for s in split_of.values() if s == "train") == 16  # 0.8 of 20 papers


def test_statistics_add_up(examples):
    split_of = assign_splits(e.paper_id for e in examples)
    rows = {row["split"]: row for row in dataset_statistics(examples, split_of).to_pylist()}
    parts = [rows[name] for name in ("train", "validation", "test")]
    for column in ("examples", "papers", "sentences", "positives_before", "positives_after", "rouge_added"):
        assert sum(row[column] for row in parts) == rows["all"][column]
    for row in rows.values():
        assert row["positives_after"] == row["positives_before"] + row["rouge_added"]
        assert row["positives_per_example_before"] == pytest.approx(row["positives_before"] / row["examples"])
    assert rows["all"]["examples"] == len(examples)
    assert rows["all"]["rouge_added"] > 0


def test_release_has_the_same_rows_in_jsonl_and_parquet(examples, tmp_path):
    split_of = assign_splits(e.paper_id for e in examples)
    counts = write_release(examples, split_of, tmp_path, batch_rows=7)
    assert sum(counts.values()) == len(examples)
    for split, count in counts.items():
        lines = [json.loads(line) for line in (tmp_path / f"{split}.jsonl").open()]
        table = pq.read_table(tmp_path / f"{split}.parquet").to_pylist()
        assert len(lines) == len(table) == count
        for line, row in zip(lines, table):
            assert line == row
            assert row["split"] == split and len(row["sentences"]) == len(row["labels"]) == len(row["label_sources"])
            assert [s is not None for s in row["label_sources"]] == row["labels"]
