"""unarXive 2022 papers as S2ORC pdf_parses / metadata records with GROBID-style citation spans."""

import gzip
import json

import pytest
from builders import with_lone_surrogate

from citeworth_assets.lib.arxiv.unarxive2022 import MARKER
from citeworth_assets.lib.citeworth.unarxive_input import (
    STYLES,
    bib_label,
    convert_file,
    convert_record,
    paper_input,
    write_s2orc_shard,
)
from citeworth_assets.lib.read_issues import IssueLog

SAMPLE = "unarxive-2022/arXiv_src_2212_086.first20.jsonl"


def _record(text, bib=None, ref_entries=None):
    bib = bib or {
        "a": {"bib_entry_raw": "J. Smith, K. Lee, and M. Chen. A study of things. Nature, 2019."},
        "b": {"bib_entry_raw": "P. Jones. Another study. Science 12:3-4, 2020."},
        "c": {"bib_entry_raw": "A. Roe and B. Doe. Two authors. 1998."},
    }
    return {
        "paper_id": "2212.00001",
        "metadata": {
            "title": "T",
            "versions": [{"created": "Mon, 5 Dec 2022"}],
            "authors_parsed": [["Smith", "J", ""]],
        },
        "discipline": "Physics",
        "abstract": {"text": "An abstract."},
        "body_text": [{"section": "Introduction", "text": text, "cite_spans": [], "ref_spans": []}],
        "bib_entries": bib,
        "ref_entries": ref_entries or {},
    }


def _spans(paragraph):
    return [span["text"] for span in paragraph["cite_spans"]]


def test_a_citation_group_becomes_grobid_fragments_in_both_styles():
    text = "Known before {{cite:a}}, {{cite:b}}.\nAnd once more{{cite:c}}."
    numeric = convert_record(_record(text), "numeric").pdf_parse["body_text"][0]
    assert numeric["text"] == "Known before [1, 2]. And once more [3]."
    assert _spans(numeric) == ["[1,", "2]", "[3]"]
    author_year = convert_record(_record(text), "author_year").pdf_parse["body_text"][0]
    assert author_year["text"] == "Known before (Smith et al., 2019; Jones, 2020). And once more (Roe and Doe, 1998)."
    assert _spans(author_year) == ["(Smith et al., 2019;", "Jones, 2020)", "(Roe and Doe, 1998)"]
    for paragraph in (numeric, author_year):
        assert [s["ref_id"] for s in paragraph["cite_spans"]] == ["a", "b", "c"]
        assert all(paragraph["text"][s["start"] : s["end"]] == s["text"] for s in paragraph["cite_spans"])


def test_markers_separated_by_words_are_separate_citations_and_formulas_and_figures_are_rendered():
    text = "  See {{cite:a}} and {{cite:b}} for {{formula:f1}} in {{figure:g1}}."
    converted = convert_record(_record(text, ref_entries={"g1": {"type": "figure"}, "f1": {"type": "formula"}}))
    paragraph = converted.pdf_parse["body_text"][0]
    assert paragraph["text"] == "See [1] and [2] for FORMULA in Figure 1."
    assert _spans(paragraph) == ["[1]", "[2]"]
    assert paragraph["ref_spans"] == [{"start": 31, "end": 39, "text": "Figure 1", "ref_id": "g1"}]


def test_a_marker_without_bib_entry_is_dropped_and_reported():
    converted = convert_record(_record("Known {{cite:a}}, {{cite:zz}}."))
    assert _spans(converted.pdf_parse["body_text"][0]) == ["[1]"]
    assert converted.problems == ["1 citation marker(s) without a bib entry dropped"]


def test_bib_labels_from_raw_strings():
    assert (
        bib_label(1, "T. Alazard, O. Lazar, and Q. H. Nguyen. On the dynamics. J. Math., 162:1–22, 2022.").author_year()
        == "Alazard et al., 2022"
    )
    assert bib_label(2, "Z. Kabluchko. Critical points. Ann. Probab. 2015.").author_year() == "Kabluchko, 2015"
    assert bib_label(3, "").author_year() == "Anonymous, n.d."
    with pytest.raises(ValueError, match="citation style"):
        convert_record(_record("x"), "footnote")


def test_every_shared_paper_converts_with_spans_on_their_text(shared_data):
    log = IssueLog()
    with open(shared_data / SAMPLE, encoding="utf-8") as lines:
        markers = sum(
            len(MARKER.findall(p["text"]))
            for line in lines
            for p in json.loads(line)["body_text"]
            if "{{cite:" in p["text"]
        )
    assert markers > 800
    for style in STYLES:
        papers = list(convert_file(shared_data / SAMPLE, style, log))
        assert len(papers) == 20
        spans = groups = 0
        for paper in papers:
            for paragraph in paper.pdf_parse["body_text"]:
                text = paragraph["text"]
                assert text == text.strip() and "  " not in text and "\n" not in text and "{{cite:" not in text
                for span in paragraph["cite_spans"] + paragraph["ref_spans"]:
                    assert 0 <= span["start"] < span["end"] <= len(text)
                    assert text[span["start"] : span["end"]] == span["text"]
                    assert span["ref_id"] in (
                        paper.pdf_parse["bib_entries"]
                        if span in paragraph["cite_spans"]
                        else paper.pdf_parse["ref_entries"]
                    )
                spans += len(paragraph["cite_spans"])
                groups += sum(1 for span in paragraph["cite_spans"] if span["text"][-1] in ",;")
        assert spans == markers  # every {{cite:...}} marker of the sample has its bib entry
        assert groups > 50  # grouped citations are common in real papers
    assert not log.counts


def test_converted_shared_papers_pass_the_s2orc_readers_and_candidate_filter(shared_data, tmp_path):
    log = IssueLog()
    inputs = [
        paper_input(paper, SAMPLE, line, log)
        for line, paper in enumerate(convert_file(shared_data / SAMPLE, "numeric", log), 1)
    ]
    candidates = [paper for paper in inputs if not isinstance(paper, str)]
    rejected = [reason for reason in inputs if isinstance(reason, str)]
    # Three sample papers have no bibliography (no {{cite}} marker at all); the others are candidates.
    assert rejected == ["has_pdf_parsed_bib_entries"] * 3
    assert len(candidates) == 17 and all(paper.mag_field_of_study for paper in candidates)
    assert not log.counts
    assert (
        write_s2orc_shard(iter(convert_file(shared_data / SAMPLE, "author_year", log)), tmp_path, "unarxive2022") == 20
    )
    with gzip.open(tmp_path / "unarxive2022/full/pdf_parses/pdf_parses_0.jsonl.gz", "rt") as lines:
        assert len([json.loads(line) for line in lines]) == 20
    assert not list(tmp_path.rglob("*.part"))


def test_the_command_writes_a_dump_that_the_s2orc_readers_and_cleaning_take(shared_data, tmp_path):
    from click.testing import CliRunner

    from citeworth_assets.cli import main
    from citeworth_assets.lib.citeworth.cleaning import clean_papers
    from citeworth_assets.lib.citeworth.rules import rule_set
    from citeworth_assets.lib.s2orc.candidate_filter import shard_candidates
    from citeworth_assets.lib.s2orc.shards import discover_shards
    from citeworth_assets.lib.sentences import splitter

    result = CliRunner().invoke(
        main, ["unarxive-to-s2orc", str(shared_data / SAMPLE), "--out", str(tmp_path), "--style", "author_year"]
    )
    assert result.exit_code == 0, result.output
    assert "20 papers -> unarxive2022 shard 0" in result.output
    (shard,) = discover_shards(tmp_path)
    log = IssueLog()
    _, papers = shard_candidates(shard, log)
    papers = list(papers)
    assert len(papers) == 17 and not log.counts
    kept = [r for r in clean_papers(papers, rule_set("citeworth_2021"), splitter()) if r.accepted]
    assert kept  # real arXiv paragraphs come out of the faithful rules


def test_real_papers_in_the_unarxive_2024_shape_convert_with_every_citation(shared_data, tmp_path):
    from citeworth_assets.samples.unarxive_2024 import to_2024

    with open(shared_data / SAMPLE, encoding="utf-8") as lines:
        records = [json.loads(line) for line in lines]
    path = tmp_path / "unarxive_2024.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as out:
        out.writelines(json.dumps(to_2024(record)) + "\n" for record in records)
    before = {p.paper_id: p for p in convert_file(shared_data / SAMPLE, "numeric", IssueLog())}
    log = IssueLog()
    for paper in convert_file(path, "numeric", log):
        spans = [s["ref_id"] for p in paper.pdf_parse["body_text"] for s in p["cite_spans"]]
        assert spans == [s["ref_id"] for p in before[paper.paper_id].pdf_parse["body_text"] for s in p["cite_spans"]]
        assert paper.pdf_parse["body_text"] and paper.metadata == before[paper.paper_id].metadata
    assert not log.counts


def test_a_lone_surrogate_keeps_its_paper(shared_data, tmp_path):
    """unarXive's LaTeX-to-text step writes a mathematical letter cut between its surrogate halves as a lone
    ``\\ud835`` escape; strict JSON parsers reject the line. CiteWorth over arXiv keeps the paper, as the unarXive
    reader does, with U+FFFD in its place and an ``invalid_utf8`` issue at the line."""
    path = with_lone_surrogate(shared_data / SAMPLE, 2, tmp_path / "lone.jsonl")
    log = IssueLog()
    papers = list(convert_file(path, "numeric", log))
    assert len(papers) == 20 and [(i.kind, i.line) for i in log.issues if i.kind == "invalid_utf8"] == [
        ("invalid_utf8", 3)
    ]
    assert any("a lone \ufffd letter" in p["text"] for p in papers[2].pdf_parse["body_text"])
