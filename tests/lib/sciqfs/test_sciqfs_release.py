"""Splits grouped by citing paper, Table 1 statistics and the JSONL + Parquet release."""

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from citeworth_assets.lib.read_issues import IssueLog
from citeworth_assets.lib.sciqfs.augmentation import augment_examples
from citeworth_assets.lib.sciqfs.examples import build_examples, default_splitter
from citeworth_assets.lib.sciqfs.release import example_row, write_release, write_split_files
from citeworth_assets.lib.sciqfs.s2orc_source import paper_from_pdf_parse
from citeworth_assets.lib.sciqfs.sample import SciqfsSampleSettings, generate_dump
from citeworth_assets.lib.sciqfs.splits import SplitSettings, assign_splits
from citeworth_assets.lib.sciqfs.statistics import dataset_statistics
from citeworth_assets.lib.sciqfs.tables import build_tables


@pytest.fixture(scope="module")
def examples():
    split = default_splitter()
    records, abstracts = generate_dump(SciqfsSampleSettings(papers=20))
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
    counts, _ = write_split_files(map(example_row, examples), split_of, tmp_path, batch_rows=7)
    assert sum(counts.values()) == len(examples)
    for split, count in counts.items():
        lines = [json.loads(line) for line in (tmp_path / f"{split}.jsonl").open()]
        table = pq.read_table(tmp_path / f"{split}.parquet").to_pylist()
        assert len(lines) == len(table) == count
        for line, row in zip(lines, table):
            assert line == row
            assert row["split"] == split and len(row["sentences"]) == len(row["labels"]) == len(row["label_sources"])
            assert [s is not None for s in row["label_sources"]] == row["labels"]


def _card(folder):
    import yaml

    text = (folder / "README.md").read_text()
    assert text.startswith("---\n")
    return yaml.safe_load(text.split("---\n")[1]), text


@pytest.fixture
def science_parse_release(tmp_path):
    from pathlib import Path

    from citeworth_assets.lib.sciqfs.dataset import build_dataset
    from citeworth_assets.lib.sciqfs.science_parse import read_science_parse_folder
    from citeworth_assets.lib.sciqfs.tables import normalise_title

    folder = Path(__file__).resolve().parent / "science_parse"
    catalogue = {
        normalise_title("Ranking Sentences by Query Overlap"): "We rank sentences by their word overlap with a query.",
        normalise_title("Graph Neural Networks"): "Graph neural networks learn representations of graph nodes.",
    }
    log = IssueLog()
    report = build_dataset(
        read_science_parse_folder(folder, log), tmp_path / "out", default_splitter(), log, catalogue_abstracts=catalogue
    )
    return tmp_path / "out", report


def test_science_parse_build_has_a_card_matching_its_files(science_parse_release):
    out, report = science_parse_release
    header, text = _card(out)
    files = header["configs"][0]["data_files"]
    assert {f["split"]: f["path"] for f in files} == {split: f"{split}.jsonl" for split in report["rows_per_split"]}
    splits = {s["name"]: s for s in header["dataset_info"]["splits"]}
    assert {name: s["num_examples"] for name, s in splits.items()} == report["rows_per_split"]
    assert all(s["num_bytes"] == (out / f"{name}.jsonl").stat().st_size for name, s in splits.items())
    for split in report["rows_per_split"]:
        first = json.loads((out / f"{split}.jsonl").read_text().splitlines()[0])
        assert [f["name"] for f in header["dataset_info"]["features"]] == list(first)
    features = {f["name"]: f for f in header["dataset_info"]["features"]}
    assert features["labels"] == {"name": "labels", "list": "bool"} and features["rouge_fmeasure"]["dtype"] == "float64"
    assert "ROUGE-SciQFS: A ROUGE-based Method" in text and "CC BY-SA 4.0" in text
    assert "`rouge_type`: `rouge2`" in text and "`split_seed`: `13`" in text
    stats = {row["split"]: row for row in pq.read_table(out / "statistics.parquet").to_pylist()}
    assert f"| all | 3 | 3 | {stats['all']['sentences']} |" in text  # Table 1's overall row


def test_science_parse_build_loads_with_datasets(science_parse_release, tmp_path, monkeypatch):
    datasets = pytest.importorskip("datasets")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    out, report = science_parse_release
    loaded = datasets.load_dataset(str(out), cache_dir=str(tmp_path / "cache"))  # the card's configs
    assert {name: split.num_rows for name, split in loaded.items()} == report["rows_per_split"]
    row = next(iter(loaded.values()))[0]
    assert len(row["sentences"]) == len(row["labels"]) and isinstance(row["query"], str)


def test_release_statistics_equal_the_streamed_ones(examples, tmp_path):
    """Table 1 from the rows as they stream to the release equals Table 1 from the examples and from the files."""
    from citeworth_assets.lib.sciqfs.statistics import statistics_from_release

    split_of = assign_splits(e.paper_id for e in examples)
    _, statistics = write_release(map(example_row, examples), split_of, tmp_path, {"rouge_type": "rouge2"}, "v")
    expected = dataset_statistics(examples, split_of).to_pylist()
    assert statistics.to_pylist() == expected == pq.read_table(tmp_path / "statistics.parquet").to_pylist()
    released = pa.concat_tables(
        pq.read_table(tmp_path / f"{split}.parquet") for split in ("train", "validation", "test")
    )
    assert statistics_from_release(released).to_pylist() == expected


def test_graph_and_command_write_the_same_layout(examples, tmp_path):
    """The graph's release (examples streamed from lake partitions) has the files of `citeworth sciqfs`'s."""
    from citeworth_assets.lib import lake
    from citeworth_assets.lib.sciqfs import lake_tables

    split_of = assign_splits(e.paper_id for e in examples)
    half = len(examples) // 2
    root = tmp_path / "lake"
    for key, part in (("a", examples[:half]), ("b", examples[half:])):
        lake_tables.write_examples(root, part, key, lake_tables.S2ORC_DIMENSION, {"rouge_type": "rouge2"})
    graph = tmp_path / "graph"
    with lake.replaced_folder(graph) as staging:
        counts, _ = write_release(
            lake_tables.iter_examples(root, batch_rows=3), split_of, staging, {"rouge_type": "rouge2"}, "v"
        )
    command = tmp_path / "command"
    write_release(map(example_row, examples), split_of, command, {"rouge_type": "rouge2"}, "v")
    assert sorted(p.name for p in graph.iterdir()) == sorted(p.name for p in command.iterdir())
    assert {"README.md", "statistics.parquet", "train.jsonl", "test.parquet"} <= {p.name for p in graph.iterdir()}
    for split in counts:
        assert (graph / f"{split}.jsonl").read_bytes() == (command / f"{split}.jsonl").read_bytes()
    header, text = _card(graph)
    assert {s["name"]: s["num_examples"] for s in header["dataset_info"]["splits"]} == counts
    overall = dataset_statistics(examples, split_of).to_pylist()[-1]
    assert f"| all | {overall['examples']} | {overall['papers']} | {overall['sentences']} |" in text
    assert "inherits-source-licences" in text and "provenance columns" not in text
