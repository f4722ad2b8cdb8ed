"""``citeworth sciqfs`` on hand-written Science-Parse files (ROUGE-SciQFS Figure 3 fields), one of them malformed."""

import json
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from citeworth_assets.cli import main

FIXTURES = Path(__file__).resolve().parents[1] / "lib" / "sciqfs" / "science_parse"
ABSTRACTS = [
    {
        "title": "Ranking Sentences by Query Overlap",
        "abstract": "We rank sentences by their word overlap with a query.",
    },
    {"title": "Graph Neural Networks", "abstract": "Graph neural networks learn representations of graph nodes."},
]


@pytest.fixture
def collection(tmp_path):
    folder = tmp_path / "parsed"
    shutil.copytree(FIXTURES, folder)
    (folder / "truncated.json").write_text('{"title": "Cut off', encoding="utf-8")
    abstracts = tmp_path / "abstracts.jsonl"
    abstracts.write_text("".join(json.dumps(row) + "\n" for row in ABSTRACTS), encoding="utf-8")
    return folder, abstracts


def _run(*args):
    return CliRunner().invoke(main, ["sciqfs", *map(str, args)])


def test_builds_the_release_and_counts_the_malformed_file(collection, tmp_path):
    folder, abstracts = collection
    out = tmp_path / "out"
    result = _run("--science-parse", folder, "--out", out, "--abstracts", abstracts, "--seed", 5)
    assert result.exit_code == 0, result.output
    assert "3 papers, 4 references, 7 citations -> 3 examples" in result.output
    assert "reference_without_abstract 2" in result.output
    assert "truncated.json: bad_json" in result.stderr
    report = json.loads((out / "build.json").read_text())
    assert report["problems"]["bad_json"] == 1 and report["examples"] == 3
    rows = [json.loads(line) for split in report["rows_per_split"] for line in (out / f"{split}.jsonl").open()]
    assert len(rows) == 3
    for row in rows:
        assert len(row["sentences"]) == len(row["labels"]) == len(row["label_sources"])
        assert "citation" in row["label_sources"]  # every example has a citing sentence
        assert [bool(s) for s in row["label_sources"]] == row["labels"]
    parquet_rows = sum(pq.read_table(out / f"{split}.parquet").num_rows for split in report["rows_per_split"])
    assert parquet_rows == 3
    statistics = {row["split"]: row for row in pq.read_table(out / "statistics.parquet").to_pylist()}
    assert statistics["all"]["examples"] == 3
    assert statistics["all"]["positives_after"] >= statistics["all"]["positives_before"] == 5


def test_baselines_print_table_3(collection, tmp_path):
    folder, abstracts = collection
    result = _run("--science-parse", folder, "--out", tmp_path / "out", "--abstracts", abstracts, "--baselines")
    assert result.exit_code == 0, result.output
    assert "Cosine Similarity\tTFIDF-Words\t" in result.output and "Cosine Similarity\tTFIDF-Chars\t" in result.output


def test_without_a_catalogue_references_lack_queries_and_no_example_is_built(collection, tmp_path):
    folder, _ = collection
    result = _run("--science-parse", folder, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "-> 0 examples" in result.output and "reference_without_abstract 5" in result.output


def test_a_folder_without_science_parse_files_fails_and_keeps_the_old_output(tmp_path):
    empty, out = tmp_path / "empty", tmp_path / "out"
    empty.mkdir()
    out.mkdir()
    (out / "keep.txt").write_text("previous")
    result = _run("--science-parse", empty, "--out", out)
    assert result.exit_code != 0 and "no paper read" in result.output
    assert [p.name for p in out.iterdir()] == ["keep.txt"]
