"""Defect 6 of issue 10: duplicate paper_ids; the first occurrence by release/shard/line wins, every duplicate is
reported."""

import json

from citeworth_assets.lib import lake
from citeworth_assets.lib.duplicates import write_duplicate_papers
from citeworth_assets.lib.read_issues import IssueLog
from citeworth_assets.lib.s2orc.records import (
    ShardSource,
    paper_schema,
    read_metadata,
    read_paragraphs,
)
from citeworth_assets.lib.s2orc.schema import DUPLICATES


def write(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_a_paper_id_repeated_in_a_file_keeps_its_first_line_and_reports_the_others(tmp_path):
    path = write(
        tmp_path / "metadata_0.jsonl",
        [
            {"paper_id": "1", "title": "first"},
            {"paper_id": "2"},
            {"paper_id": "1", "title": "second"},
            {"paper_id": "1"},
        ],
    )
    log = IssueLog()
    rows = list(read_metadata(ShardSource("r", "r_0", path), log))
    assert [(row["paper_id"], row["title"]) for row in rows] == [("1", "first"), ("2", None)]
    duplicates = [(i.line, i.paper_id) for i in log.issues if i.kind == "duplicate_paper_id"]
    assert duplicates == [(3, "1"), (4, "1")]


def test_repeated_pdf_parses_records_give_paragraphs_once(tmp_path):
    record = {"paper_id": "1", "bib_entries": {}, "body_text": [{"text": "a", "section": "s"}]}
    path = write(tmp_path / "pdf_parses_0.jsonl", [record, record])
    log = IssueLog()
    assert len(list(read_paragraphs(ShardSource("r", "r_0", path), log, {"1"}))) == 1
    assert log.counts == {"duplicate_paper_id": 1}


def test_papers_in_several_shards_are_listed_with_the_first_kept(tmp_path):
    for shard, ids in (("r_1", ["3", "1"]), ("r_0", ["1", "2"]), ("r_2", ["1", "2"])):
        path = write(tmp_path / f"metadata_{shard}.jsonl", [{"paper_id": i} for i in ids])
        rows = read_metadata(ShardSource("r", shard, path), IssueLog())
        lake.write_partition(tmp_path / "lake", "s2orc_papers", paper_schema(), rows, shard)
    assert write_duplicate_papers(tmp_path / "lake", DUPLICATES) == 5
    table = lake.read_partition(tmp_path / "lake", "s2orc_duplicate_papers").to_pylist()
    assert [(r["paper_id"], r["shard"], r["line"], r["kept"]) for r in table] == [
        ("1", "r_0", 1, True),
        ("1", "r_1", 2, False),
        ("1", "r_2", 1, False),
        ("2", "r_0", 2, True),
        ("2", "r_2", 2, False),
    ]


def test_a_paper_in_two_shards_reaches_the_dataset_once(tmp_path):
    from citeworth_assets.lib.citeworth.dataset import write_field_paragraphs
    from citeworth_assets.lib.citeworth.partition import paragraph_schema, rules_key

    root = tmp_path / "lake"

    def paragraph(paper_id, shard):
        return {
            "rule_set": "citeworth_2021",
            "paper_id": paper_id,
            "section_idx": 0,
            "mag_field_of_study": ["Biology"],
            "samples": [],
            "shard": shard,
            "line": 1,
        }

    for shard in ("r_0", "r_1"):
        rows = [paragraph("twice", shard), paragraph(f"only_{shard}", shard)]
        lake.write_partition(root, "citeworth_paragraphs", paragraph_schema(), rows, rules_key("citeworth_2021", shard))
    duplicates = [
        {"paper_id": "twice", "release": "r", "shard": "r_0", "source_file": "m_0", "line": 1, "kept": True},
        {"paper_id": "twice", "release": "r", "shard": "r_1", "source_file": "m_1", "line": 1, "kept": False},
    ]
    lake.write_partition(root, "s2orc_duplicate_papers", DUPLICATES.schema, duplicates)
    assert write_field_paragraphs(root, "citeworth_2021", "Biology", "biology") == 3
    table = lake.read_partition(
        root, "citeworth_field_paragraphs", rules_key("citeworth_2021", "biology"), dimension="field"
    )
    assert sorted(zip(table.column("paper_id").to_pylist(), table.column("shard").to_pylist())) == [
        ("only_r_0", "r_0"),
        ("only_r_1", "r_1"),
        ("twice", "r_0"),
    ]


def test_an_arxiv_paper_in_two_dump_files_reaches_the_dataset_once(tmp_path):
    """unarXive files overlap (the same paper in two downloaded parts): CiteWorth over arXiv cleans it in each, and
    the dataset takes the paragraphs of the first file (by partition key) that holds it; S2ORC rows are untouched."""
    from citeworth_assets.lib.citeworth.dataset import write_field_paragraphs
    from citeworth_assets.lib.citeworth.partition import paragraph_schema, rules_key

    root = tmp_path / "lake"

    def paragraph(paper_id, source_file, section_idx=0, shard=None):
        return {
            "rule_set": "citeworth_2021",
            "paper_id": paper_id,
            "section_idx": section_idx,
            "mag_field_of_study": ["Physics"],
            "samples": [],
            "shard": shard,
            "source_file": source_file,
            "line": 1,
        }

    for key, source in (("unarxive_2022_b", "/d/b.jsonl"), ("unarxive_2022_a", "/d/z.jsonl")):
        rows = [paragraph("2212.00001", source, 0), paragraph("2212.00001", source, 1), paragraph(key, source)]
        lake.write_partition(
            root, "citeworth_arxiv_paragraphs", paragraph_schema(), rows, rules_key("citeworth_2021", key), "file"
        )
    lake.write_partition(
        root, "citeworth_paragraphs", paragraph_schema(), [paragraph("9", "m_0", shard="r_0")], "citeworth_2021.r_0"
    )
    assert write_field_paragraphs(root, "citeworth_2021", "Physics", "physics") == 5
    table = lake.read_partition(
        root, "citeworth_field_paragraphs", rules_key("citeworth_2021", "physics"), dimension="field"
    )
    assert table.schema.names == paragraph_schema().names
    rows = sorted(zip(table.column("paper_id").to_pylist(), table.column("source_file").to_pylist()))
    assert rows == [
        ("2212.00001", "/d/z.jsonl"),  # both paragraphs from unarxive_2022_a, the first key
        ("2212.00001", "/d/z.jsonl"),
        ("9", "m_0"),
        ("unarxive_2022_a", "/d/z.jsonl"),
        ("unarxive_2022_b", "/d/b.jsonl"),
    ]
