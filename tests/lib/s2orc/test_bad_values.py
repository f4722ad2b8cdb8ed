"""Defect 1 of issue 10: one bad value loses only its own value (null + ``bad_type``), never the shard."""

import json
from pathlib import Path

import pytest
from builders import S2ORC_METADATA as METADATA

from citeworth_assets.lib import lake
from citeworth_assets.lib.read_issues import IssueLog
from citeworth_assets.lib.s2orc.records import (
    ShardSource,
    paper_schema,
    paragraph_schema,
    read_metadata,
    read_paragraphs,
)


def write_lines(path: Path, lines: list[bytes]) -> Path:
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    return path


def source(path: Path) -> ShardSource:
    return ShardSource("20200705v1", "20200705v1_0", path)


BAD_METADATA = [
    ({"year": 99999999999}, "year", None),
    ({"year": "99999999999"}, "year", None),
    ({"authors": [{"first": 123}]}, "authors", [{"first": "", "middle": [], "last": "", "suffix": ""}]),
    (
        {"authors": [{"first": "A", "middle": [1, {"x": 1}], "last": ["B"], "suffix": None}]},
        "authors",
        [{"first": "A", "middle": ["1"], "last": "", "suffix": ""}],
    ),
    ({"outbound_citations": ["2", {"id": 3}, [4]]}, "outbound_citations", ["2"]),
]


@pytest.mark.parametrize("change,column,expected", BAD_METADATA)
def test_a_bad_metadata_value_is_nulled_and_reported_and_the_shard_is_written(tmp_path, change, column, expected):
    records = [{**METADATA, "paper_id": str(i)} for i in range(5)]
    records[2].update(change)
    path = write_lines(tmp_path / "metadata_0.jsonl", [json.dumps(r).encode() for r in records])
    log = IssueLog()
    rows = lake.write_partition(tmp_path / "lake", "papers", paper_schema(), read_metadata(source(path), log), "s")
    assert rows == 5
    table = lake.read_partition(tmp_path / "lake", "papers", "s").to_pylist()
    assert table[2][column] == expected and table[1][column] == METADATA[column]
    bad = [issue for issue in log.issues if issue.kind == "bad_type"]
    assert bad and all((i.file, i.line, i.paper_id) == (str(path), 3, "2") for i in bad)


def test_invalid_utf8_in_a_paper_id_loses_only_that_line(tmp_path):
    good = [
        json.dumps({"paper_id": str(i), "body_text": [{"text": "x", "section": "S"}], "bib_entries": {}}).encode()
        for i in range(3)
    ]
    path = write_lines(
        tmp_path / "pdf_parses_0.jsonl", [good[0], b'{"paper_id": "\xff\xfe12", "body_text": []}', *good[1:]]
    )
    log = IssueLog()
    rows = read_paragraphs(source(path), log, paper_ids={"0", "1", "2"})
    assert lake.write_partition(tmp_path / "lake", "paragraphs", paragraph_schema(), rows, "s") == 3
    assert [(i.kind, i.line) for i in log.issues] == [("invalid_utf8", 2)]


def test_a_paper_id_that_is_not_a_scalar_is_reported_and_skipped(tmp_path):
    path = write_lines(
        tmp_path / "metadata_0.jsonl",
        [json.dumps({**METADATA, "paper_id": {"a": 1}}).encode(), json.dumps(METADATA).encode()],
    )
    log = IssueLog()
    assert [row["paper_id"] for row in read_metadata(source(path), log)] == ["1"]
    assert [(i.kind, i.line) for i in log.issues] == [("bad_type", 1)]


@pytest.mark.parametrize(
    "value,expected",
    [("false", False), ("False", False), ("true", True), (0, False), (1, True), ("no", None), (2, None), ([], None)],
)
def test_flags_given_as_strings_or_numbers_are_read_strictly_and_reported(tmp_path, value, expected):
    path = write_lines(tmp_path / "metadata_0.jsonl", [json.dumps({**METADATA, "has_pdf_parse": value}).encode()])
    log = IssueLog()
    (row,) = read_metadata(source(path), log)
    assert row["has_pdf_parse"] is expected
    assert [(i.kind, i.line, i.paper_id) for i in log.issues] == [("bad_type", 1, "1")]
    assert "has_pdf_parse" in log.issues[0].message
