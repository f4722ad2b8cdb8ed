"""Tables, examples and labels of ROUGE-SciQFS (§3.2-3.4)."""

import json

import pytest
from builders import real_s2orc_parsed_papers

from citeworth_assets.lib.read_issues import IssueLog
from citeworth_assets.lib.sciqfs.examples import (
    ExampleCounts,
    ExampleSettings,
    build_examples,
    citing_sentences,
    default_splitter,
    label_sentences,
)
from citeworth_assets.lib.sciqfs.s2orc_source import (
    paper_from_paragraphs,
    paper_from_pdf_parse,
)
from citeworth_assets.lib.sciqfs.sample import generate_dump
from citeworth_assets.lib.sciqfs.tables import (
    ParsedMention,
    ParsedPaper,
    ParsedReference,
    build_tables,
    normalise_title,
    reference_id,
)


@pytest.fixture(scope="module")
def split():
    return default_splitter()


def test_normalised_titles_ignore_case_punctuation_and_spacing():
    assert normalise_title("  Attention Is All You Need. ") == normalise_title("attention is all you need")
    assert normalise_title("BERT: Pre-training") == "bert pre training"
    assert normalise_title(None) == normalise_title("...") == ""


def test_duplicate_references_take_all_fields_from_one_record():
    first = ParsedReference("b0", "Deep Nets", None)
    second = ParsedReference("b3", "deep nets.", "Abstract of the second record.")
    third = ParsedReference("b1", "DEEP NETS", "A different abstract of a third record.")
    papers = [
        ParsedPaper(
            "p1", "P1", None, ["Deep nets help [1]."], [first], [ParsedMention("b0", "Deep nets help [1].", 15, 18)]
        ),
        ParsedPaper(
            "p2",
            "P2",
            None,
            ["We use them [4]. Again [4]."],
            [second],
            [ParsedMention("b3", "We use them [4].", 12, 15), ParsedMention("b3", "Again [4].", 6, 9)],
        ),
        ParsedPaper("p3", "P3", None, ["x"], [third], []),
    ]
    tables = build_tables(papers, IssueLog())
    (row,) = tables.references.to_pylist()
    assert row == {
        "reference_id": reference_id("title:deep nets"),
        "title": "deep nets.",
        "total_citations": 3,
        "abstract": "Abstract of the second record.",
    }
    assert set(tables.citations.column("reference_id").to_pylist()) == {row["reference_id"]}


def test_bad_mentions_are_counted_and_other_data_kept():
    paper = ParsedPaper(
        "p1",
        None,
        None,
        ["A [1]."],
        [ParsedReference("b0", "T", "Q")],
        [
            ParsedMention("b9", "A [1].", 2, 5),
            ParsedMention("b0", "A [1].", 4, 99),
            ParsedMention("b0", "A [1].", 2, 5),
        ],
        source="p1.json",
    )
    log = IssueLog()
    tables = build_tables([paper, paper], log)
    assert log.counts == {"unknown_reference": 1, "offset_out_of_range": 1, "duplicate_paper": 1}
    assert tables.papers.num_rows == 1
    rows = tables.citations.to_pylist()
    assert [(r["start_offset"], r["end_offset"]) for r in rows] == [(None, None), (2, 5)]
    assert all(issue.file == "p1.json" and issue.paper_id == "p1" for issue in log.issues)


def test_each_citing_sentence_matched_on_its_own(split):
    """Two contexts of one pair: the published grouping glues them ("...them [1].Later ..."); here both match."""
    sentences = [
        "Intro text here.",
        "Transformers were proposed by them [1].",
        "Other words.",
        "Later work extended them [1].",
    ]
    contexts = ["Transformers were proposed by them [1].", "Later work extended them [1]."]
    labels, unmatched = label_sentences(sentences, citing_sentences(contexts, split))
    assert labels == [False, True, False, True] and unmatched == 0
    glued = citing_sentences(contexts, split, grouping="published")
    assert glued == ["Transformers were proposed by them [1].Later work extended them [1]."]
    glued_labels, glued_unmatched = label_sentences(sentences, glued)
    assert glued_labels == [False] * 4 and glued_unmatched == 1


def test_every_citing_sentence_is_labelled_on_the_generated_dump(split):
    records, abstracts = generate_dump()
    log = IssueLog()
    tables = build_tables([paper_from_pdf_parse(r, split, abstracts, log, "gen.jsonl") for r in records], log)
    counts = ExampleCounts()
    examples = {(e.paper_id, e.reference_id): e for e in build_examples(tables, split, counts=counts)}
    assert counts.examples == len(examples) > 20 and counts.unmatched_citing_sentences == 0
    with_query = {r["reference_id"] for r in tables.references.to_pylist() if r["abstract"]}
    checked = 0
    for row in tables.citations.to_pylist():
        if row["reference_id"] not in with_query:
            continue
        example = examples[(row["paper_id"], row["reference_id"])]
        assert example.labels[example.sentences.index(row["context"])]
        assert (
            row["context"][row["start_offset"] : row["end_offset"]] in ("[1]", "[2]", "[3]", "[4]", "[5]")
            or row["context"][row["start_offset"]] == "("
        )
        checked += 1
    assert checked > 50
    for example in examples.values():  # positives are exactly the citing sentences
        citing = {
            r["context"]
            for r in tables.citations.to_pylist()
            if (r["paper_id"], r["reference_id"]) == (example.paper_id, example.reference_id)
        }
        assert {s for s, label in zip(example.sentences, example.labels) if label} == citing


def test_length_limit_is_a_setting_and_drops_are_counted(split):
    records, abstracts = generate_dump()
    log = IssueLog()
    tables = build_tables([paper_from_pdf_parse(r, split, abstracts, log) for r in records], log)
    counts = ExampleCounts()
    assert list(build_examples(tables, split, ExampleSettings(max_sentences=5), counts)) == []
    assert counts.skipped["paper_too_long"] > 0 and counts.examples == 0


def test_real_s2orc_paper_with_a_linked_cited_abstract(shared_data, split):
    papers, log = real_s2orc_parsed_papers(shared_data, split)
    tables = build_tables(papers, log)
    examples = list(build_examples(tables, split))
    assert tables.papers.num_rows == 3 and tables.citations.num_rows > 50
    # Only 18980380 cites a paper whose abstract is in the sample metadata.
    assert [e.paper_id for e in examples] == ["18980380"]
    (example,) = examples
    assert len(example.sentences) > 50 and 1 <= sum(example.labels) < 10


def test_lake_paragraph_rows_without_bibliography_titles_group_by_link(split):
    rows = [
        {
            "text": "Intro. Prior work did this [3]. More text.",
            "cite_spans": [
                {"start": 27, "end": 30, "text": "[3]", "ref_id": "BIBREF2", "linked_paper_id": "555"},
                {"start": 0, "end": 5, "text": "Intro", "ref_id": None, "linked_paper_id": None},
            ],
        },
        {"text": "No citations here.", "cite_spans": []},
    ]
    paper = paper_from_paragraphs("p9", rows, split, {"555": "The cited abstract."})
    assert [(m.internal_id, m.context, m.context[m.start_offset : m.end_offset]) for m in paper.mentions] == [
        ("BIBREF2", "Prior work did this [3].", "[3]")
    ]
    tables = build_tables([paper], IssueLog())
    assert tables.references.to_pylist() == [
        {
            "reference_id": reference_id("linked:555"),
            "title": None,
            "total_citations": 1,
            "abstract": "The cited abstract.",
        }
    ]
    assert tables.papers.column("text").to_pylist() == [
        "Intro. Prior work did this [3]. More text.\n\nNo citations here."
    ]


def test_real_cord19_papers_parse_and_yield_no_example_without_linked_abstracts(shared_data, split):
    """CORD-19 bibliography entries carry no links: tables are built, but there is no query to pair."""
    log = IssueLog()
    paths = sorted((shared_data / "cord19" / "pdf_json").glob("*.json"))
    papers = [paper_from_pdf_parse(json.loads(p.read_text()), split, {}, log, p) for p in paths]
    tables = build_tables(papers, log)
    counts = ExampleCounts()
    assert tables.papers.num_rows == len(paths) == 8 and tables.citations.num_rows > 100
    assert list(build_examples(tables, split, counts=counts)) == []
    assert counts.skipped["reference_without_abstract"] > 50
