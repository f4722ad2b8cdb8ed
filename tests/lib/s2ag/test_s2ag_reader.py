"""The S2AG full-text reader on the real records: what the raw annotations hold, computed here, against the rows."""

import json
from collections import Counter

import pytest
from s2ag_helpers import RELEASE, real_records

from citeworth_assets.lib.jsonl import IssueLog
from citeworth_assets.lib.s2ag import layout
from citeworth_assets.lib.s2ag.annotations import RecordTally
from citeworth_assets.lib.s2ag.bibliography import bib_entries
from citeworth_assets.lib.s2ag.records import full_text_batches, paragraph_batches
from citeworth_assets.lib.s2orc.schema import ShardSource
from citeworth_assets.lib.s2orc.values import RecordReporter


def _spans(record: dict, name: str) -> list[dict]:
    value = record["content"]["annotations"].get(name)
    return json.loads(value) if isinstance(value, str) else value or []


def _unique(spans: list[dict]) -> set[tuple[int, int]]:
    return {(span["start"], span["end"]) for span in spans}


@pytest.fixture(scope="module")
def sample(shared_data):
    path = sorted((shared_data / "s2ag-2023" / "s2orc").glob("*.gz"))[0]
    source = ShardSource(RELEASE, layout.partition_key(RELEASE, "s2orc", path.name), path)
    log = IssueLog()
    papers = [row for table in full_text_batches(source, log) for row in table.to_pylist()]
    paragraphs = [row for table in paragraph_batches(source, log) for row in table.to_pylist()]
    return real_records(shared_data), papers, paragraphs, log


def test_every_paper_is_read_with_its_provenance(sample):
    records, papers, _, _ = sample
    assert [p["paper_id"] for p in papers] == [str(r["corpusid"]) for r in records]
    assert [p["line"] for p in papers] == list(range(1, len(records) + 1))
    assert all(p["release"] == RELEASE and p["source_file"].endswith("_s2orc_sample.gz") for p in papers)
    by_id = {p["paper_id"]: p for p in papers}
    assert by_id["256868338"]["ft_arxiv"] == "2302.07618"
    assert by_id["256867980"]["ft_pubmedcentral"] == "9925312"
    assert by_id["256867980"]["has_pdf_parsed_bib_entries"] is False  # the erratum: bibentry is null
    assert by_id["256868353"]["abstract"].startswith(
        records[2]["content"]["text"][_spans(records[2], "abstract")[0]["start"] :][:40]
    )


def test_each_unique_paragraph_span_is_one_paragraph_with_a_section(sample):
    records, _, paragraphs, log = sample
    spans = {str(r["corpusid"]): sorted(_unique(_spans(r, "paragraph"))) for r in records}
    expected = Counter(
        (paper, r["content"]["text"][s:e]) for r in records for paper in [str(r["corpusid"])] for s, e in spans[paper]
    )
    from_spans = [p for p in paragraphs if p["paragraph_index"] < len(spans[p["paper_id"]])]
    got = Counter((p["paper_id"], p["text"]) for p in from_spans)
    assert got == expected  # each unique span once, although the release repeats them (two spans share a text)
    assert len({(p["paper_id"], p["paragraph_index"]) for p in paragraphs}) == len(paragraphs)
    # footnotes: lines outside every annotated block that hold citations, after the paper's paragraph spans
    notes = [p for p in paragraphs if p["paragraph_index"] >= len(spans[p["paper_id"]])]
    assert len(notes) == sum(int(i.message.split()[0]) for i in log.issues if i.kind == "footnote_paragraph") == 7
    for note in notes:
        text = next(r["content"]["text"] for r in records if str(r["corpusid"]) == note["paper_id"])
        start = text.index(note["text"])
        assert note["cite_spans"] and not any(
            a < start + len(note["text"]) and start < b for a, b in spans[note["paper_id"]]
        )
    with_section = sum(1 for p in paragraphs if p["section"])
    assert with_section / len(paragraphs) >= 0.8
    introduction = [p for p in paragraphs if p["paper_id"] == "256868338"][0]
    assert introduction["section"] == "Introduction"  # the header's text; its number "1" is not part of it (2020)


def test_unique_citation_spans_are_present_and_linked_to_their_entry(sample):
    records, _, paragraphs, log = sample
    cited = {
        (p["paper_id"], p["text"][c["start"] : c["end"]], c["ref_id"], c["linked_paper_id"])
        for p in paragraphs
        for c in p["cite_spans"]
    }
    spans = [c for p in paragraphs for c in p["cite_spans"]]
    assert all(p["text"][c["start"] : c["end"]] == c["text"] for p in paragraphs for c in p["cite_spans"])
    total = in_paragraphs = found = 0
    for record in records:
        text, paper = record["content"]["text"], str(record["corpusid"])
        entries = {e["attributes"]["id"]: e["attributes"].get("matched_paper_id") for e in _spans(record, "bibentry")}
        paragraph_spans = _unique(_spans(record, "paragraph"))
        unique = {(s["start"], s["end"]): (s.get("attributes") or {}).get("ref_id") for s in _spans(record, "bibref")}
        for (start, end), ref_id in unique.items():
            total += 1
            in_paragraphs += any(a <= start and end <= b for a, b in paragraph_spans)
            linked = entries.get(ref_id)
            found += (paper, text[start:end], ref_id, None if linked is None else str(linked)) in cited
    assert len(spans) == len(
        {(p["paper_id"], p["paragraph_index"], c["start"]) for p in paragraphs for c in p["cite_spans"]}
    )
    assert found / total >= 0.95
    assert (total, in_paragraphs, found) == (255, 242, 255)  # 13 in footnotes, kept as their lines
    assert not [i for i in log.issues if i.kind == "citation_outside_paragraph"]
    linked = [c for c in spans if c["linked_paper_id"]]
    assert len(linked) > 150 and all(c["linked_paper_id"].isdigit() for c in linked)


def test_repeated_spans_are_counted_once_per_record_and_kind(sample):
    records, _, _, log = sample
    repeats = [i for i in log.issues if i.kind == "repeated_spans"]
    assert {i.paper_id for i in repeats} == {"255784916", "255785057"}  # the records whose spans all repeat
    paragraph = next(r for r in records if r["corpusid"] == 255784916)
    raw, unique = len(_spans(paragraph, "paragraph")), len(_unique(_spans(paragraph, "paragraph")))
    assert f"paragraph: {raw - unique}" in repeats[-1].message or any(
        f"paragraph: {raw - unique}" in i.message for i in repeats
    )


def test_bibliography_entries_carry_their_sub_spans(shared_data):
    record = next(r for r in real_records(shared_data) if r["corpusid"] == 255784916)
    log = IssueLog()
    entries = bib_entries(record, RecordTally(RecordReporter(log, "x", 4, 0, "255784916")))
    assert len(entries) == len(_unique(_spans(record, "bibentry")))
    first = entries[0]
    assert first.ref_id == "b0" and first.matched_paper_id == "13131991"
    assert first.title and first.authors and first.venue and 1900 < first.year < 2030
    assert sum(1 for e in entries if e.title) / len(entries) > 0.8
