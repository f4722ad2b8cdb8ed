"""Defect 8 of issue 10: segmentation is linear on repeated sentences; one paragraph's cost is capped."""

import json
import time

import pytest

from citeworth_assets.lib.read_issues import IssueLog
from citeworth_assets.lib.s2orc.records import ShardSource, read_paragraphs
from citeworth_assets.lib.sentences import _segmenter

SENTENCE = "Previous work has shown that attention helps (Smith et al., 2019). "


@pytest.mark.parametrize(
    "text",
    [
        SENTENCE * 40,
        (SENTENCE + " \n ") * 20 + "Fig. 2 shows it.  " * 10,
        "A b. A b. A b.   A b.\n\nA b. " * 15,
        ("It works. " * 5 + "It works well. ") * 6,
    ],
)
def test_the_faster_search_gives_pysbd_s_own_spans(text):
    import pysbd

    reference = [
        (span.sent, span.start, span.end)
        for span in pysbd.Segmenter(language="en", clean=False, char_span=True).segment(text)
    ]
    assert _segmenter().segment(text) == reference


def test_a_paragraph_repeating_one_sentence_is_segmented_in_linear_time():
    _segmenter().segment(SENTENCE * 10)  # build the pipeline first
    text = SENTENCE * (400_000 // len(SENTENCE))
    started = time.perf_counter()
    spans = _segmenter().segment(text)
    seconds = time.perf_counter() - started
    assert len(spans) == 400_000 // len(SENTENCE)
    assert seconds < 4, f"{seconds:.1f} s for 400 KB (quadratic search took 40 s)"


def test_a_paragraph_over_the_size_limit_is_dropped_and_counted(tmp_path):
    body = [
        {"text": "short", "section": "s"},
        {"text": "x" * 1001, "section": "s"},
        {"text": "also short", "section": "s"},
    ]
    path = tmp_path / "pdf_parses_0.jsonl"
    path.write_text(json.dumps({"paper_id": "1", "bib_entries": {}, "body_text": body}) + "\n")
    log = IssueLog()
    rows = list(read_paragraphs(ShardSource("r", "r_0", path), log, max_paragraph_chars=1000))
    assert [row["paragraph_index"] for row in rows] == [0, 2]
    assert log.counts == {"paragraph_too_long": 1} and log.issues[0].line == 1 and log.issues[0].paper_id == "1"
