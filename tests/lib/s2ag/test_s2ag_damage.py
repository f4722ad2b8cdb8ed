"""Damaged S2AG full texts: each fault counted with its reason, file and line; what can be kept is kept, once."""

import json

from s2ag_helpers import write_lines

from citeworth_assets.lib.jsonl import IssueLog
from citeworth_assets.lib.s2ag.records import full_text_batches, paragraph_batches
from citeworth_assets.lib.s2orc.schema import ShardSource

TEXT = "Title\n\nIntro\n\nWe build on [1] and on [2].\n\nMethods\n\nAs before [1].\n\n[1] A paper. 2019. [2] Another."


def _at(text: str, part: str, nth: int = 0) -> tuple[int, int]:
    start = -1
    for _ in range(nth + 1):
        start = text.index(part, start + 1)
    return start, start + len(part)


def _span(text: str, part: str, attributes=None, nth: int = 0) -> dict:
    start, end = _at(text, part, nth)
    span = {"start": start, "end": end}
    if attributes is not None:
        span["attributes"] = attributes
    return span


def s2orc_record(corpus_id: int, **overrides) -> dict:
    """A small record of the ``s2orc`` shape, every span written twice as the release does."""
    t = TEXT
    annotations = {
        "title": [_span(t, "Title")],
        "sectionheader": [_span(t, "Intro", {"n": "1"}), _span(t, "Methods", {"n": "2"})],
        "paragraph": [_span(t, "We build on [1] and on [2]."), _span(t, "As before [1].")],
        "bibref": [
            _span(t, "[1]", {"ref_id": "b0"}),
            _span(t, "[2]", {"ref_id": "b1"}),
            _span(t, "[1]", {"ref_id": "b0"}, nth=1),
        ],
        "bibentry": [
            _span(t, "[1] A paper. 2019.", {"id": "b0", "matched_paper_id": 42}),
            _span(t, "[2] Another.", {"id": "b1"}),
        ],
        "abstract": None,
        "figureref": None,
    }
    annotations = {k: None if v is None else json.dumps(v + v) for k, v in annotations.items()}
    annotations.update(overrides)
    return {"corpusid": corpus_id, "externalids": {"doi": "10.1/x"}, "content": {"text": t, "annotations": annotations}}


def _read(tmp_path, lines, raw=False):
    path = write_lines(tmp_path / "s2ag" / "r" / "s2orc" / "part-0.gz", lines, raw=raw)
    source = ShardSource("r", "s2ag_r_s2orc_part_0", path)
    log = IssueLog()
    rows = [row for table in paragraph_batches(source, log) for row in table.to_pylist()]
    papers = [row for table in full_text_batches(source, IssueLog()) for row in table.to_pylist()]
    return rows, papers, log


def _counted(log: IssueLog, kind: str) -> int:
    return sum(int(issue.message.split()[0]) for issue in log.issues if issue.kind == kind)


def test_a_clean_record_gives_each_paragraph_and_citation_once(tmp_path):
    rows, papers, log = _read(tmp_path, [s2orc_record(1)])
    assert [(r["section"], r["text"]) for r in rows] == [
        ("Intro", "We build on [1] and on [2]."),
        ("Methods", "As before [1]."),
    ]
    assert [(c["text"], c["ref_id"], c["linked_paper_id"]) for c in rows[0]["cite_spans"]] == [
        ("[1]", "b0", "42"),
        ("[2]", "b1", None),
    ]
    assert rows[1]["cite_spans"][0]["start"] == len("As before ")  # relative to the paragraph
    assert _counted(log, "repeated_spans") == 2 + 2 + 3 + 2  # the second of each: headers, paragraphs, bibrefs, entries
    assert {i.line for i in log.issues} == {1} and all(i.file.endswith("part-0.gz") for i in log.issues)
    assert papers[0]["has_pdf_parsed_bib_entries"] and not papers[0]["has_pdf_parsed_abstract"]


def test_null_and_unparseable_annotations_are_counted_and_the_rest_kept(tmp_path):
    rows, _, log = _read(tmp_path, [s2orc_record(1, bibref=None), s2orc_record(2, sectionheader="[{not json")])
    assert len(rows) == 4
    assert all(r["cite_spans"] == [] for r in rows if r["paper_id"] == "1")
    assert all(r["section"] == "" for r in rows if r["paper_id"] == "2")
    assert [(i.kind, i.line) for i in log.issues if i.kind.startswith("annotation_")] == [
        ("annotation_null", 1),
        ("annotation_invalid_json", 2),
    ]


def test_spans_past_the_text_overlapping_or_naming_no_entry(tmp_path):
    t = TEXT
    paragraphs = [_span(t, "We build on [1] and on [2]."), _span(t, "As before [1]."), {"start": 5, "end": 10_000}]
    paragraphs.append({"start": _at(t, "We build")[0] + 3, "end": _at(t, "We build")[0] + 9})  # inside the first
    bibrefs = [
        _span(t, "[1]", {"ref_id": "b0"}),
        {"start": _at(t, "[1]")[0] + 1, "end": _at(t, "[1]")[1] + 2, "attributes": {"ref_id": "b0"}},  # overlaps
        _span(t, "[2]", {"ref_id": "b7"}),  # names no entry
        _span(t, "[1]", nth=1),  # no ref_id at all
    ]
    record = s2orc_record(1, paragraph=json.dumps(paragraphs), bibref=json.dumps(bibrefs))
    rows, _, log = _read(tmp_path, [record])
    assert [r["text"] for r in rows] == ["We build on [1] and on [2].", "As before [1]."]
    assert [(c["text"], c["ref_id"], c["linked_paper_id"]) for c in rows[0]["cite_spans"]] == [
        ("[1]", "b0", "42"),
        ("[2]", "b7", None),
    ]
    assert rows[0]["invalid_span_count"] == 1
    assert rows[1]["cite_spans"][0]["ref_id"] is None
    assert _counted(log, "span_out_of_range") == 1
    assert _counted(log, "span_overlap") == 2  # the nested paragraph and the overlapping citation
    assert _counted(log, "citation_without_entry") == 2


def test_lone_surrogates_and_bad_bytes_cost_their_characters_only(tmp_path):
    good = json.dumps(s2orc_record(1)).encode()
    surrogate = good.replace(b"We build on", b"We \\ud800uild on").replace(b'"corpusid": 1', b'"corpusid": 2')
    bad_byte = good.replace(b"As before", b"As bef\xffre").replace(b'"corpusid": 1', b'"corpusid": 3')
    rows, _, log = _read(tmp_path, [surrogate + b"\n", bad_byte + b"\n", b"{not json\n"], raw=True)
    assert {r["paper_id"] for r in rows} == {"2", "3"}
    texts = {r["text"] for r in rows}
    assert "We \ufffduild on [1] and on [2]." in texts and "As bef\ufffdre [1]." in texts
    assert [(i.kind, i.line) for i in log.issues if i.kind in ("invalid_utf8", "invalid_json")] == [
        ("invalid_utf8", 1),
        ("invalid_utf8", 2),
        ("invalid_json", 3),
    ]


def test_a_record_without_corpus_id_or_seen_before_is_skipped_and_reported(tmp_path):
    no_id = s2orc_record(1)
    del no_id["corpusid"]
    rows, papers, log = _read(tmp_path, [no_id, s2orc_record(5), s2orc_record(5)])
    assert [p["paper_id"] for p in papers] == ["5"]
    assert len(rows) == 2
    assert [(i.kind, i.line) for i in log.issues if i.kind in ("missing_field", "duplicate_paper_id")] == [
        ("missing_field", 1),
        ("duplicate_paper_id", 3),
    ]


def v2_record(corpus_id: int, parsed: bool) -> dict:
    """A record of the ``s2orc_v2`` shape as published: body and bibliography apart, snake_case keys."""
    body = "Intro\n\nWe build on [1].\n\nMore [1] here."
    bibliography = "A paper. Smith. Nature. 2019.\nAnother."
    body_annotations = {
        "section_header": [_span(body, "Intro", {"n": "1"})],
        "paragraph": [_span(body, "We build on [1]."), _span(body, "More [1] here.")],
        "sentence": [_span(body, "We build on [1].")],
        "bib_ref": [_span(body, "[1]", {"ref_id": "b0"}), _span(body, "[1]", {"ref_id": "b0"}, nth=1)],
        "figure_ref": None,
    }
    bib_annotations = {
        "bib_entry": [_span(bibliography, "A paper. Smith. Nature. 2019.", {"id": "b0", "matched_paper_id": 7})],
        "bib_title": [_span(bibliography, "A paper.")],
        "bib_author": [_span(bibliography, "Smith.")],
        "bib_venue": [_span(bibliography, "Nature.")],
        "bib_date": [_span(bibliography, "2019")],
    }
    encode = (lambda v: v) if parsed else (lambda v: None if v is None else json.dumps(v))
    return {
        "corpusid": corpus_id,
        "title": "A v2 paper",
        "authors": [{"name": "Ada Lovelace"}],
        "openaccessinfo": {"externalids": {"ArXiv": "2101.00001"}, "license": "CCBY", "status": "GREEN"},
        "body": {"text": body, "annotations": {k: encode(v) for k, v in body_annotations.items()}},
        "bibliography": {"text": bibliography, "annotations": {k: encode(v) for k, v in bib_annotations.items()}},
    }


def test_s2orc_v2_records_parsed_or_as_json_strings(tmp_path):
    rows, papers, log = _read(tmp_path, [v2_record(1, parsed=True), v2_record(2, parsed=False)])
    for paper_id in ("1", "2"):
        mine = [r for r in rows if r["paper_id"] == paper_id]
        assert [(r["section"], r["text"]) for r in mine] == [("Intro", "We build on [1]."), ("Intro", "More [1] here.")]
        assert [(c["text"], c["linked_paper_id"]) for r in mine for c in r["cite_spans"]] == [
            ("[1]", "7"),
            ("[1]", "7"),
        ]
    assert papers[0]["title"] == "A v2 paper" and papers[0]["ft_arxiv"] == "2101.00001"
    assert papers[0]["has_pdf_parsed_bib_entries"] and not papers[0]["has_pdf_parsed_ref_entries"]
    assert log.total == 0


def test_s2orc_v2_bibliography_entries(tmp_path):
    from citeworth_assets.lib.s2ag.annotations import RecordTally
    from citeworth_assets.lib.s2ag.bibliography import bib_entries
    from citeworth_assets.lib.s2orc.values import RecordReporter

    log = IssueLog()
    (entry,) = bib_entries(v2_record(1, parsed=False), RecordTally(RecordReporter(log, "x", 1, 0, "1")))
    assert (entry.ref_id, entry.matched_paper_id, entry.title, entry.authors, entry.venue, entry.year) == (
        "b0",
        "7",
        "A paper.",
        ["Smith."],
        "Nature.",
        2019,
    )


def test_a_citation_in_a_footnote_line_is_kept_one_in_a_caption_is_counted(tmp_path):
    t = "Intro\n\nWe build on [1].\n\nFigure 1: as in [1].\n3 See also [1] for more.\n\n[1] A paper. 2019."
    record = s2orc_record(
        1,
        paragraph=json.dumps([_span(t, "We build on [1].")]),
        sectionheader=json.dumps([_span(t, "Intro")]),
        figure=json.dumps([_span(t, "Figure 1: as in [1].", {"id": "fig_0"})]),
        bibref=json.dumps([_span(t, "[1]", {"ref_id": "b0"}, nth=n) for n in range(3)]),
        bibentry=json.dumps([_span(t, "[1] A paper. 2019.", {"id": "b0", "matched_paper_id": 42})]),
    )
    record["content"]["text"] = t
    rows, _, log = _read(tmp_path, [record])
    assert [(r["paragraph_index"], r["section"], r["text"]) for r in rows] == [
        (0, "Intro", "We build on [1]."),
        (1, "Intro", "3 See also [1] for more."),
    ]
    assert rows[1]["cite_spans"][0]["linked_paper_id"] == "42"
    assert (_counted(log, "footnote_paragraph"), _counted(log, "citation_outside_paragraph")) == (1, 1)
