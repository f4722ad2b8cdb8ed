import json
from pathlib import Path

import pytest
from builders import S2ORC_METADATA as METADATA

from citeworth_assets.lib.read_issues import IssueLog
from citeworth_assets.lib.s2orc.records import (
    ShardSource,
    read_metadata,
    read_paragraphs,
)


def write_jsonl(path: Path, records) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records))
    return path


def source(path: Path) -> ShardSource:
    return ShardSource("20200705v1", "20200705v1_0", path)


def test_metadata_rows_are_typed_with_provenance(tmp_path):
    path = write_jsonl(tmp_path / "metadata_0.jsonl", [METADATA, {**METADATA, "paper_id": 2, "year": "2001"}])
    log = IssueLog()
    rows = list(read_metadata(source(path), log))
    assert [row["paper_id"] for row in rows] == ["1", "2"]
    assert rows[1]["year"] == 2001
    assert rows[0]["mag_field_of_study"] == ["Biology"] and rows[0]["has_pdf_parsed_bib_entries"] is True
    assert (rows[1]["release"], rows[1]["shard"], rows[1]["source_file"], rows[1]["line"]) == (
        "20200705v1",
        "20200705v1_0",
        "metadata_0.jsonl",
        2,
    )
    assert rows[1]["byte_offset"] == len(json.dumps(METADATA)) + 1
    assert log.total == 0


def test_missing_fields_and_nulls_are_repaired_and_reported(tmp_path):
    broken = {k: v for k, v in METADATA.items() if k not in ("venue", "has_pdf_parsed_abstract")}
    broken.update(paper_id="7", inbound_citations=None, authors=None, year="unknown")
    path = write_jsonl(tmp_path / "m.jsonl", [broken, {"title": "no id"}, METADATA])
    log = IssueLog()
    rows = list(read_metadata(source(path), log))
    assert [row["paper_id"] for row in rows] == ["7", "1"]  # the record without paper_id is the only loss
    assert rows[0]["inbound_citations"] == [] and rows[0]["authors"] == [] and rows[0]["year"] is None
    assert rows[0]["venue"] is None and rows[0]["has_pdf_parsed_abstract"] is False
    kinds = {(issue.kind, issue.line, issue.paper_id) for issue in log.issues}
    assert ("null_list", 1, "7") in kinds and ("bad_type", 1, "7") in kinds and ("missing_field", 2, None) in kinds
    messages = " ".join(issue.message for issue in log.issues)
    assert "'venue'" in messages and "'has_pdf_parsed_abstract'" in messages and "'inbound_citations'" in messages


def test_papers_without_pdf_parse_lack_the_parse_flags_legitimately(tmp_path):
    record = {k: v for k, v in METADATA.items() if not k.startswith("has_pdf_")}
    record.update(has_pdf_parse=False, mag_field_of_study=None)
    log = IssueLog()
    (row,) = read_metadata(source(write_jsonl(tmp_path / "m.jsonl", [record])), log)
    assert row["has_pdf_parsed_body_text"] is False and row["mag_field_of_study"] is None
    assert log.total == 0


PARSE = {
    "paper_id": "1",
    "_pdf_hash": "",
    "abstract": [],
    "body_text": [
        {
            "section": "Introduction",
            "text": "Cited before [1]. And again (Lee, 2020).",
            "cite_spans": [
                {"start": 13, "end": 16, "text": "[1]", "ref_id": "BIBREF0"},
                {"start": 28, "end": 39, "mention": "(Lee, 2020)", "ref_id": "BIBREF1"},
            ],
            "ref_spans": [],
        },
        {
            "section": None,
            "text": "Bad offsets [2].",
            "cite_spans": [{"start": 12, "end": 99, "text": "[2]", "ref_id": None}],
            "ref_spans": None,
        },
        {"section": "Methods", "cite_spans": []},
    ],
    "bib_entries": {"BIBREF0": {"title": "x", "link": "777"}, "BIBREF1": {"title": "y", "link": None}},
    "ref_entries": {},
}


def test_paragraphs_carry_spans_links_and_provenance(tmp_path):
    other = {**PARSE, "paper_id": "2"}
    path = write_jsonl(tmp_path / "pdf_parses_0.jsonl", [other, PARSE])
    log = IssueLog()
    rows = list(read_paragraphs(source(path), log, paper_ids={"1"}))
    assert [(row["paper_id"], row["paragraph_index"], row["line"]) for row in rows] == [("1", 0, 2), ("1", 1, 2)]
    first, second = rows
    assert [span["linked_paper_id"] for span in first["cite_spans"]] == ["777", None]
    assert first["cite_spans"][1]["text"] == "(Lee, 2020)"  # 'mention' accepted for 'text'
    assert second["section"] == "" and second["cite_spans"] == [] and second["invalid_span_count"] == 1
    kinds = sorted((issue.kind, issue.line) for issue in log.issues)
    assert kinds == [("bad_paragraph", 2), ("null_list", 2), ("span_out_of_range", 2)]
    assert all(issue.paper_id == "1" for issue in log.issues)


def test_real_s2orc_metadata_sample_reads_without_issues(shared_data):
    path = shared_data / "s2orc-20200705" / "metadata_sample.jsonl"
    log = IssueLog()
    rows = list(read_metadata(source(path), log))
    assert len(rows) == 1000 and log.total == 0
    raw = [json.loads(line) for line in path.open()]
    assert [row["paper_id"] for row in rows] == [r["paper_id"] for r in raw]
    assert sum(row["has_pdf_parse"] for row in rows) == sum(r["has_pdf_parse"] for r in raw)


@pytest.mark.parametrize("folder", ["s2orc-20200705/pdf_parses", "cord19/pdf_json"])
def test_real_pdf_parses_and_cord19_papers_keep_every_paragraph(shared_data, tmp_path, folder):
    files = sorted((shared_data / folder).glob("*.json"))
    raw = [json.loads(f.read_text()) for f in files]
    path = write_jsonl(tmp_path / "pdf_parses_0.jsonl", [json.dumps(r) for r in raw])
    log = IssueLog()
    rows = list(read_paragraphs(source(path), log))
    assert len(rows) == sum(len(r["body_text"]) for r in raw)
    assert log.total == 0
    spans = [(s["start"], s["end"], s["text"]) for r in raw for p in r["body_text"] for s in p["cite_spans"]]
    assert [(s["start"], s["end"], s["text"]) for row in rows for s in row["cite_spans"]] == spans
    for row in rows:
        for span in row["cite_spans"]:
            assert row["text"][span["start"] : span["end"]] == span["text"]
