import json

import pyarrow.parquet as pq

from citeworth_assets.lib import lake
from citeworth_assets.lib.citeworth.dataset import (
    RELEASE_FIELDS,
    build_dataset,
    export_release,
    read_dataset,
    write_statistics,
)
from citeworth_assets.lib.citeworth.partition import paragraph_schema
from citeworth_assets.lib.fields import field_key
from citeworth_assets.lib.sentences import splitter

RULES = "citeworth_2021"


def paragraph(paper, index, field):
    samples = [
        {
            "text": "It has been shown that cells divide quickly.",
            "label": "check-worthy",
            "original_text": "It has been shown that cells divide quickly [1].",
            "ref_ids": [["BIBREF0"]],
            "citation_text": ["[1]"],
        },
        {
            "text": "We measured the division rate in every sample.",
            "label": "non-check-worthy",
            "original_text": "We measured the division rate in every sample.",
            "ref_ids": None,
            "citation_text": None,
        },
    ]
    return {
        "rule_set": RULES,
        "paper_id": paper,
        "section_idx": index,
        "section_title": "Introduction",
        "original_text": "...",
        "mag_field_of_study": [field],
        "file_index": "0",
        "file_offset": 7,
        "samples": samples,
        "sentences": 2,
        "cite_worthy": 1,
        "release": "r",
        "shard": "r_0",
        "source_file": "pdf_parses_0.jsonl.gz",
        "line": 1,
        "byte_offset": 7,
    }


def make_fields(root, sizes):
    for field, (papers, per_paper) in sizes.items():
        rows = [paragraph(f"{field_key(field)}-{p}", i, field) for p in range(papers) for i in range(per_paper)]
        lake.write_partition(
            root, "citeworth_field_paragraphs", paragraph_schema(), rows, f"{RULES}.{field_key(field)}", "field"
        )


def test_fields_are_sampled_evenly_and_splits_are_disjoint_by_paper(tmp_path):
    make_fields(tmp_path, {"Biology": (40, 3), "Physics": (25, 2), "Economics": (100, 1)})
    summary = build_dataset(tmp_path, RULES, ["Biology", "Physics", "Economics", "Art"], None, seed=1)
    assert summary["paragraphs_per_field"] == 50 and summary["missing_fields"] == ["Art"]
    table = read_dataset(tmp_path, RULES).to_pylist()
    counts = {}
    for row in table:
        counts[row["field"]] = counts.get(row["field"], 0) + 1
    assert counts == {"Biology": 50, "Physics": 50, "Economics": 50}
    split_of = {}
    for row in table:
        assert split_of.setdefault(row["paper_id"], row["split"]) == row["split"]
    economics = [paper for paper, split in split_of.items() if paper.startswith("economics")]
    assert sorted(split_of[p] for p in economics).count("train") == 40  # 80% of the field's 50 papers
    again = build_dataset(tmp_path, RULES, ["Biology", "Physics", "Economics", "Art"], None, seed=1)
    assert again == summary and read_dataset(tmp_path, RULES).to_pylist() == table
    build_dataset(tmp_path, RULES, ["Biology", "Physics", "Economics"], None, seed=2)
    assert read_dataset(tmp_path, RULES).column("paper_id").to_pylist() != [row["paper_id"] for row in table]


def test_a_configured_cap_limits_every_field(tmp_path):
    make_fields(tmp_path, {"Biology": (40, 3), "Physics": (25, 2)})
    assert build_dataset(tmp_path, RULES, ["Biology", "Physics"], 7, seed=1)["paragraphs"] == 14


def test_statistics_and_release(tmp_path):
    make_fields(tmp_path, {"Biology": (10, 1), "Physics": (10, 1)})
    build_dataset(tmp_path, RULES, ["Biology", "Physics"], None, seed=1)
    stats = {row["field"]: row for row in write_statistics(tmp_path, RULES, splitter()).to_pylist()}
    assert stats["all"]["sentences"] == 40 and stats["all"]["cite_worthy_share"] == 0.5
    assert stats["all"]["min_chars"] == len("It has been shown that cells divide quickly.")
    assert stats["all"]["train_sentences"] + stats["all"]["dev_sentences"] + stats["all"]["test_sentences"] == 40
    assert stats["Biology"]["tokens"] == 10 * (9 + 9)  # words and the final period
    folder, counts = export_release(tmp_path, RULES, tmp_path / "exports" / RULES)
    assert sum(counts.values()) == 20 and sorted(p.name for p in folder.iterdir()) == [
        "README.md",
        "citeworth.parquet",
        "dev.jsonl",
        "table_2.png",
        "test.jsonl",
        "train.jsonl",
    ]  # (README.md: the dataset card)
    record = json.loads((folder / "train.jsonl").read_text().splitlines()[0])
    assert list(record) == list(RELEASE_FIELDS)  # the published release's fields, in its order
    assert list(record["samples"][0]) == ["text", "label", "original_text", "ref_ids", "citation_text"]
    assert "citation_text" not in record["samples"][1] and record["samples"][1]["ref_ids"] is None
    assert pq.read_table(folder / "citeworth.parquet").num_rows == 20
