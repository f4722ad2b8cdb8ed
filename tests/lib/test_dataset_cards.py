"""Every release folder carries a Hugging Face dataset card that matches its files, and loads with `datasets`."""

import json

import pyarrow as pa
import pytest
import yaml

from citeworth_assets.lib.citesum.card import CARD as CITESUM_CARD
from citeworth_assets.lib.citeworth.card import CARD as CITEWORTH_CARD
from citeworth_assets.lib.dataset_cards import features_of
from citeworth_assets.lib.releases import write_release


def citeworth_table(paragraphs: int = 12) -> pa.Table:
    rows = []
    for i in range(paragraphs):
        samples = [
            {
                "text": f"Sentence {i}.{j} about things.",
                "label": "check-worthy" if j == 0 else "non-check-worthy",
                "ref_ids": [[f"r{i}"]] if j == 0 and i % 2 else [],
            }
            for j in range(3)
        ]  # empty in the first record
        rows.append(
            {
                "paper_id": str(i),
                "section_title": "Introduction",
                "field": ["Biology", "Chemistry"][i % 2],
                "split": ["train", "train", "dev", "test"][i % 4],
                "samples": samples,
                "rule_set": "citeworth_2021",
            }
        )
    return pa.Table.from_pylist(rows)


def citeworth_record(row: dict) -> dict:
    return {
        "paper_id": row["paper_id"],
        "section_title": row["section_title"],
        "samples": row["samples"],
        "mag_field_of_study": [row["field"]],
    }


def card_header(folder) -> dict:
    text = (folder / "README.md").read_text()
    assert text.startswith("---\n")
    return yaml.safe_load(text.split("---\n")[1])


def test_citeworth_release_has_a_card_matching_its_files(tmp_path):
    folder = tmp_path / "exports" / "citeworth" / "citeworth_2021"
    counts = write_release(
        folder, citeworth_table(), ("train", "dev", "test"), citeworth_record, "citeworth.parquet", CITEWORTH_CARD
    )
    header = card_header(folder)
    files = header["configs"][0]["data_files"]
    assert [(f["split"], f["path"]) for f in files] == [
        ("train", "train.jsonl"),
        ("dev", "dev.jsonl"),
        ("test", "test.jsonl"),
    ]
    assert (
        {s["name"]: s["num_examples"] for s in header["dataset_info"]["splits"]}
        == counts
        == {"train": 6, "dev": 3, "test": 3}
    )
    first = json.loads((folder / "train.jsonl").read_text().splitlines()[0])
    names = [f["name"] for f in header["dataset_info"]["features"]]
    assert names == list(first)
    samples = {
        "name": "samples",
        "list": [
            {"name": "text", "dtype": "string"},
            {"name": "label", "dtype": "string"},
            {"name": "ref_ids", "list": {"list": "string"}},
        ],
    }
    assert samples in header["dataset_info"]["features"]
    text = (folder / "README.md").read_text()
    assert "citeworth_2021" in text and "CiteWorth: Cite-Worthiness Detection" in text and "ODC-By" in text
    assert "| dev | 3 | 9 | 3 | 0.3333 |" in text  # paragraphs, sentences, cite-worthy, share
    assert (folder / "table_2.png").read_bytes().startswith(b"\x89PNG") and "![table_2](table_2.png)" in text


def test_citesum_card_counts_unknown_disciplines(tmp_path):
    rows = [
        {
            "citing_paper_id": "a",
            "cited_paper_id": f"c{i % 5}",
            "target": "REF shows it.",
            "abstract": "An abstract.",
            "title": "T",
            "discipline": None if i % 4 == 0 else "Biology",
            "rouge1_recall": 60.0 + i,
            "rouge2_recall": 30.0,
            "rougeL_recall": 50.0,
            "split": ["train", "validation", "test"][i % 3],
        }
        for i in range(12)
    ]
    folder = tmp_path / "citesum"
    write_release(
        folder,
        pa.Table.from_pylist(rows),
        ("train", "validation", "test"),
        lambda row: {"src": [row["abstract"]], "tgt": row["target"], "discipline": row["discipline"]},
        "citesum.parquet",
        CITESUM_CARD,
    )
    text = (folder / "README.md").read_text()
    assert card_header(folder)["task_categories"] == ["summarization"]
    assert "unknown_discipline" in text and "| train | 4 |" in text
    assert (folder / "rouge_distribution.png").exists()


def test_features_come_from_every_sampled_record():
    """Keys only some records have and lists empty in the first record still get their types."""
    records = [
        {"samples": [{"text": "a", "ref_ids": []}], "n": 1},
        {"samples": [{"text": "b", "ref_ids": [["r1"]], "citation_text": ["[1]"]}], "n": 2, "score": 0.5, "ok": True},
    ]
    assert features_of(records) == [
        {
            "name": "samples",
            "list": [
                {"name": "text", "dtype": "string"},
                {"name": "ref_ids", "list": {"list": "string"}},
                {"name": "citation_text", "list": "string"},
            ],
        },
        {"name": "n", "dtype": "int64"},
        {"name": "score", "dtype": "float64"},
        {"name": "ok", "dtype": "bool"},
    ]


def test_a_dataset_without_a_card_gets_none(tmp_path):
    write_release(tmp_path / "other", citeworth_table(4), ("train",), citeworth_record, "other.parquet")
    assert not (tmp_path / "other" / "README.md").exists()


def test_release_loads_with_datasets(tmp_path, monkeypatch, caplog):
    datasets = pytest.importorskip("datasets")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    folder = tmp_path / "citeworth_2021"
    counts = write_release(
        folder, citeworth_table(), ("train", "dev", "test"), citeworth_record, "citeworth.parquet", CITEWORTH_CARD
    )
    loaded = datasets.load_dataset("json", data_dir=str(folder), cache_dir=str(tmp_path / "cache"))
    # datasets names a file called dev "validation" when it infers splits from file names
    assert {name: split.num_rows for name, split in loaded.items()} == {"train": 6, "validation": 3, "test": 3}
    assert loaded["train"][0]["samples"][0]["label"] == "check-worthy"
    by_card = datasets.load_dataset(
        str(folder), cache_dir=str(tmp_path / "cache")
    )  # the card's configs: the release's names
    assert {name: split.num_rows for name, split in by_card.items()} == counts
    assert isinstance(by_card["dev"][0]["samples"][0]["text"], str)
    assert "malformed" not in caplog.text and "Ignoring" not in caplog.text  # the card's dataset_info is accepted
