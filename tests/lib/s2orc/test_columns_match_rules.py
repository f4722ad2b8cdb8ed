"""The column builders (issue 21) give exactly what the per-record rules give: the same rows, the same issues in
the same order, on records full of bad values mixed with good ones in one batch."""

import copy
import json
import random

import orjson
import pyarrow as pa
from builders import cite_spans

from citeworth_assets.lib.read_issues import IssueLog
from citeworth_assets.lib.s2orc.candidate_filter import first_failed_criterion, split_candidates
from citeworth_assets.lib.s2orc.records import (
    RecordReporter,
    ShardSource,
    metadata_row,
    paper_schema,
    paragraph_rows,
    paragraph_schema,
    read_metadata,
    read_paragraphs,
)

ABSENT = object()
METADATA = {
    "paper_id": "0",
    "title": "T",
    "authors": [{"first": "A", "middle": ["M"], "last": "B", "suffix": ""}],
    "abstract": "An abstract.",
    "year": 2019,
    **dict.fromkeys(["arxiv_id", "acl_id", "pmc_id", "doi", "journal"]),
    "pubmed_id": "9",
    "venue": "V",
    "mag_id": "5",
    "mag_field_of_study": ["Biology"],
    "outbound_citations": ["2"],
    "inbound_citations": ["3"],
    **dict.fromkeys(["has_outbound_citations", "has_inbound_citations", "has_pdf_parse"], True),
    **dict.fromkeys(["has_pdf_body_text", "has_pdf_parsed_abstract", "has_pdf_parsed_body_text"], True),
    **dict.fromkeys(["has_pdf_parsed_bib_entries", "has_pdf_parsed_ref_entries"], True),
    "s2_url": "https://api.semanticscholar.org/CorpusID:1",
}
BAD_METADATA = [
    {"year": 99999999999},
    {"year": "2001"},
    {"year": 2019.5},
    {"year": True},
    {"year": ABSENT},
    {"authors": [{"first": 123}]},
    {"authors": [{"first": "A", "middle": [1, None], "last": ["B"], "suffix": None}]},
    {"authors": None},
    {"authors": "Smith"},
    {"authors": [{"first": "A", "middle": "xy", "last": "B", "suffix": ""}]},
    {"outbound_citations": ["2", {"id": 3}, 4]},
    {"inbound_citations": None},
    {"mag_field_of_study": None},
    {"mag_field_of_study": "Biology"},
    {"title": 123},
    {"venue": ABSENT},
    {"abstract": {"a": 1}},
    {"abstract": "\xa0 "},
    {"has_pdf_parse": "false"},
    {"has_pdf_parse": 2},
    {"has_pdf_parse": None},
    {"has_inbound_citations": ABSENT},
    {"has_pdf_parsed_body_text": ABSENT},
    {"has_pdf_parse": False, "has_pdf_parsed_abstract": ABSENT},
    {"has_outbound_citations": 1.0},
]

PARSE = {
    "paper_id": "0",
    "body_text": [
        {
            "section": "Intro",
            "text": "Cited [1]. Also (Lee, 2020) here.",
            "cite_spans": cite_spans("Cited [1]. Also (Lee, 2020) here.", "[1]", "(Lee, 2020)"),
            "ref_spans": [{"start": 0, "end": 5, "text": "Cited", "ref_id": "FIGREF0"}],
        },
        {"section": "Methods", "text": "Plain text.", "cite_spans": [], "ref_spans": []},
    ],
    "bib_entries": {"BIBREF0": {"link": "77"}, "BIBREF1": {"link": None}},
}


def _para(record):
    return record["body_text"][0]


BAD_PARSES = [
    lambda r: r.update(bib_entries=None),
    lambda r: r.update(bib_entries={"BIBREF0": "x", "BIBREF1": {"link": 12}}),
    lambda r: r.update(body_text=None),
    lambda r: r.pop("body_text"),
    lambda r: r["body_text"].insert(1, "a string"),
    lambda r: r["body_text"].append({"text": "y" * 50, "section": "Long"}),
    lambda r: _para(r).update(section=None),
    lambda r: _para(r).pop("section"),
    lambda r: _para(r).update(cite_spans=None),
    lambda r: _para(r).pop("ref_spans"),
    lambda r: _para(r).update(cite_spans=[{"start": "1", "end": 3, "text": "x"}]),
    lambda r: _para(r).update(cite_spans=[{"start": True, "end": 3, "text": "x"}]),
    lambda r: _para(r).update(cite_spans=[{"start": 0, "end": 999, "text": "x"}]),
    lambda r: _para(r).update(cite_spans=[{"start": 0.0, "end": 2, "text": "x"}]),
    lambda r: _para(r).update(cite_spans=[{"start": 2**70, "end": 2**71, "text": "x"}]),
    lambda r: _para(r).update(cite_spans=[{"start": 6, "end": 9, "mention": "[1]", "ref_id": "BIBREF0"}]),
    lambda r: _para(r).update(cite_spans=[{"start": 6, "end": 9, "ref_id": 7}]),
    lambda r: _para(r).update(ref_spans=[{"start": 0, "end": 5, "text": 5}]),
]


def _records(template, changes, seed):
    records = []
    for i in range(60):
        record = copy.deepcopy(template)
        record["paper_id"] = str(i)
        records.append(record)
    for i, change in zip(random.Random(seed).sample(range(60), len(changes)), changes):
        if callable(change):
            change(records[i])
        else:
            for key, value in change.items():
                records[i].pop(key) if value is ABSENT else records[i].__setitem__(key, value)
    return records


def _by_rules(path, rule):
    """Rows and issues of reading the file's records one by one with the per-record rules."""
    log, rows = IssueLog(), []
    offset = 0
    for number, line in enumerate(path.read_bytes().splitlines(keepends=True), 1):
        record = orjson.loads(line)  # as the reader parses (a number past 64 bits is a float)
        report = RecordReporter(log, path, number, offset, record["paper_id"])
        provenance = ShardSource("r", "r_0", path).provenance(number, offset)
        rows += [{**row, **provenance} for row in rule(record, report)]
        offset += len(line)
    return rows, log.issues


def _write(path, records):
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    return path


def test_paper_columns_give_what_the_rules_give(tmp_path):
    records = _records(METADATA, BAD_METADATA, seed=1)
    path = _write(tmp_path / "metadata_0.jsonl", records)
    log = IssueLog()
    rows = list(read_metadata(ShardSource("r", "r_0", path), log))
    expected, issues = _by_rules(path, lambda record, report: [metadata_row(record, report)])
    assert rows == pa.Table.from_pylist(expected, schema=paper_schema()).to_pylist()
    assert log.issues == issues and len(issues) >= 15


def test_paragraph_columns_give_what_the_rules_give(tmp_path):
    records = _records(PARSE, BAD_PARSES, seed=2)
    path = _write(tmp_path / "pdf_parses_0.jsonl", records)
    log = IssueLog()
    rows = list(read_paragraphs(ShardSource("r", "r_0", path), log, max_paragraph_chars=40))
    expected, issues = _by_rules(path, lambda record, report: paragraph_rows(record, report, 40))
    assert rows == pa.Table.from_pylist(expected, schema=paragraph_schema()).to_pylist()
    assert log.issues == issues and len(issues) >= 10
    assert {span["linked_paper_id"] for row in rows for span in row["cite_spans"]} == {"77", "12", None}


def test_the_candidate_filter_over_columns_agrees_with_the_rule(tmp_path):
    records = _records(METADATA, BAD_METADATA, seed=3)
    rows = list(read_metadata(ShardSource("r", "r_0", _write(tmp_path / "m.jsonl", records)), IssueLog()))
    candidates, rejections = split_candidates(pa.Table.from_pylist(rows, schema=paper_schema()))
    expected = {row["paper_id"]: first_failed_criterion(row) for row in rows}
    assert set(candidates.column("paper_id").to_pylist()) == {i for i, reason in expected.items() if reason is None}
    got = dict(zip(rejections.column("paper_id").to_pylist(), rejections.column("failed_criterion").to_pylist()))
    assert got == {i: reason for i, reason in expected.items() if reason is not None} and len(got) >= 5
