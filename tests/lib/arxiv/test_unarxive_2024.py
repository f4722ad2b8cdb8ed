"""unarXive 2024 records (text as a ``sections`` object, richer metadata) read beside 2022 ones, told apart by shape:
real 2022 papers put into the 2024 shape give the same markers, and their paragraphs; the generated file's faults
are counted."""

import gzip
import json

import pytest

from citeworth_assets.lib.arxiv import unarxive2022
from citeworth_assets.lib.arxiv.unarxive2024 import PARAGRAPH_BREAK
from citeworth_assets.lib.jsonl import IssueLog
from citeworth_assets.samples.mag import sample_works
from citeworth_assets.samples.unarxive_2024 import to_2024, write_unarxive_2024

SAMPLE = "arXiv_src_2212_086.first20.jsonl"
WHERE = {"release": None, "line": None, "byte_offset": None}  # provenance, which differs between the two reads


@pytest.fixture(scope="module")
def real_2022(shared_data):
    with open(shared_data / "unarxive-2022" / SAMPLE, encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def expected_paragraphs(record: dict) -> list[tuple[str | None, str]]:
    """The 2022 paragraphs grouped by section (first appearance), each split at its blank lines."""
    by_section: dict[str, list[str]] = {}
    for paragraph in record["body_text"]:
        by_section.setdefault(paragraph["section"] or "", []).append(paragraph["text"].rstrip("\n"))
    return [
        (" ".join(title.split()) or None, piece.strip())
        for title, texts in by_section.items()
        for text in texts
        for piece in PARAGRAPH_BREAK.split(text)
        if piece.strip()
    ]


def test_real_papers_in_the_2024_shape_are_read_with_their_paragraphs_and_citations(real_2022, tmp_path):
    path = tmp_path / "unarxive-2022" / "mixed.jsonl.gz"
    path.parent.mkdir()
    records = [to_2024(r, cited_by_count=n) if n % 2 else r for n, r in enumerate(real_2022)]  # one file, both shapes
    with gzip.open(path, "wt", encoding="utf-8") as out:
        out.writelines(json.dumps(r) + "\n" for r in records)
    log = IssueLog()
    papers = list(unarxive2022.iter_papers(path, log))
    assert len(papers) == len(real_2022) and "missing_body_text" not in log.counts
    before = {
        p.arxiv_id: p for p in map(lambda r: unarxive2022.paper_from_record(r, path, 1, 0, IssueLog()), real_2022)
    }
    for number, paper in enumerate(papers):
        old = before[paper.arxiv_id]
        shape = "unarxive-2024" if number % 2 else "unarxive-2022"
        assert paper.row["release"] == shape and {p["release"] for p in paper.paragraphs} <= {shape}
        markers = sorted(m["ref_id"] for p in paper.paragraphs for m in p["markers"])
        assert markers == sorted(m["ref_id"] for p in old.paragraphs for m in p["markers"])  # every citation, once
        assert paper.row["n_markers"] == old.row["n_markers"]
        assert [{**r, **WHERE} for r in paper.references] == [{**r, **WHERE} for r in old.references]
        if number % 2:
            read = [(p["section"], p["text"].strip()) for p in paper.paragraphs]
            assert read == expected_paragraphs(real_2022[number])
            assert [p["paragraph_index"] for p in paper.paragraphs] == list(range(len(paper.paragraphs)))
            license = real_2022[number]["metadata"]["license"] or "http://creativecommons.org/licenses/by/4.0/"
            assert (paper.row["language"], paper.row["license"], paper.row["cited_by_count"]) == ("en", license, number)
        else:
            assert [{**p, **WHERE} for p in paper.paragraphs] == [{**p, **WHERE} for p in old.paragraphs]
            assert paper.row.get("language") is None


def test_the_generated_2024_papers_carry_their_faults_and_are_read(tmp_path):
    path = tmp_path / "unarxive_2024.jsonl.gz"
    written = write_unarxive_2024(path, sample_works(13, 40))
    log = IssueLog()
    papers = list(unarxive2022.iter_papers(path, log))
    assert [p.arxiv_id for p in papers] == written["papers"]
    for paper in papers:
        assert paper.row["release"] == "unarxive-2024" and paper.paragraphs
        assert paper.row["n_markers"] == written["markers"][paper.arxiv_id] > 0
        assert all(
            m["ref_id"] in {r["ref_id"] for r in paper.references} for p in paper.paragraphs for m in p["markers"]
        )
    sections = {p["section"] for paper in papers for p in paper.paragraphs}
    assert {"Introduction", "Related Work", None} <= sections
    assert [p.row["language"] for p in papers[:4]] == ["de", "en", "en", "en"] and papers[2].row[
        "cited_by_count"
    ] is None
    assert {kind: log.counts.get(kind) for kind in ("bad_paragraph", "cite_spans_mismatch", "bad_type")} == {
        "bad_paragraph": 1,
        "cite_spans_mismatch": 1,
        "bad_type": 1,
    }
    assert log.total == 4 and papers[3].row["abstract"].startswith("\ufffd")  # the lone surrogate, repaired and counted
