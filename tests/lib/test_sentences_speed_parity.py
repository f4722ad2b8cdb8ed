"""The fast cleaning path (drops decided before splitting, lean tokenizer, pysbd shortcuts) changes no output.

Compared with the straightforward path (every paragraph split) on real text (the shared unarXive 2022 papers
converted in both citation styles, the S2ORC and CORD-19 samples, every paragraph put in a permissible
section so that all cited paragraphs are cleaned) and on generated papers.
"""

import gzip
import json

import pytest
import scispacy.custom_sentence_segmenter  # noqa: F401  (registers pysbd_sentencizer)
import spacy
from scispacy.custom_tokenizer import combined_rule_tokenizer

from citeworth_assets.lib.citeworth.cleaning import clean_papers
from citeworth_assets.lib.citeworth.fate import (
    merged_without_tokens,
    most_sentences,
    text_follows_citation,
)
from citeworth_assets.lib.citeworth.rule_units import TEXT_AFTER_CITATION
from citeworth_assets.lib.citeworth.rules import rule_set
from citeworth_assets.lib.citeworth.unarxive_input import STYLES, convert_file
from citeworth_assets.lib.read_issues import IssueLog
from citeworth_assets.lib.s2orc.records import (
    PaperInput,
    RecordReporter,
    paragraph_rows,
)
from citeworth_assets.lib.sentences import splitter
from citeworth_assets.samples.s2orc import generate_sample_dump

RULE_SETS = ("citeworth_2021", "citeworth_improved", "citeworth_2021+abbreviation_aware_splitting")


def _paper(record: dict) -> PaperInput:
    for paragraph in record["body_text"]:
        paragraph["section"] = "results"  # every cited paragraph reaches the splitter
    rows = list(paragraph_rows(record, RecordReporter(IssueLog(), "test", 1, 0, str(record["paper_id"]))))
    return PaperInput(str(record["paper_id"]), rows, ["Physics"], {})


@pytest.fixture(scope="module")
def real_papers(shared_data):
    papers = []
    for style in STYLES:
        for converted in convert_file(
            shared_data / "unarxive-2022" / "arXiv_src_2212_086.first20.jsonl", style, IssueLog()
        ):
            converted.pdf_parse["paper_id"] = f"{converted.paper_id}-{style}"
            papers.append(_paper(converted.pdf_parse))
    for folder in ("s2orc-20200705/pdf_parses", "cord19/pdf_json"):
        papers += [_paper(json.loads(path.read_text())) for path in sorted((shared_data / folder).glob("*.json"))]
    return papers


def _outcome(papers, name: str, decide: bool):
    accepted, dropped = {}, set()
    for result in clean_papers(papers, rule_set(name), splitter(), decide_before_splitting=decide):
        for kept in result.accepted:
            accepted[(result.paper.paper_id, kept.paragraph["paragraph_index"])] = [
                (s.text, s.label, s.original_text, s.ref_ids, s.citation_text) for s in kept.verdict.samples
            ]
        dropped |= {(drop.paper_id, drop.paragraph_index) for drop in result.drops}
    return accepted, dropped


@pytest.mark.slow  # a few seconds: make test runs it, make test-fast leaves it out
@pytest.mark.parametrize("name", RULE_SETS)
def test_deciding_before_splitting_keeps_the_output_on_real_text(real_papers, name):
    fast, slow = _outcome(real_papers, name, True), _outcome(real_papers, name, False)
    assert fast == slow  # the same paragraphs kept with the same samples, the same ones dropped
    assert len(fast[0]) > 50


def test_deciding_before_splitting_keeps_the_output_on_generated_text(tmp_path):
    generate_sample_dump(tmp_path, papers=60, shards=1, seed=12)
    with gzip.open(next(tmp_path.rglob("pdf_parses_0.jsonl.gz")), "rt") as lines:
        papers = [_paper(json.loads(line)) for line in lines]
    for name in RULE_SETS[:2]:
        fast, slow = _outcome(papers, name, True), _outcome(papers, name, False)
        assert fast == slow and fast[0]


def test_the_proofs_hold_on_every_real_cited_paragraph(real_papers):
    """The sentence bound is never below the splitter's count; a citation said to be followed by text is."""
    from citeworth_assets.lib.citeworth.citations import merge_citation_spans

    sentences = splitter()
    followed = 0
    for paper in real_papers:
        for row in paper.paragraphs:
            if not row["cite_spans"] or row["invalid_span_count"]:
                continue
            text = row["text"]
            doc = next(sentences.tokenize([text]))
            bounds = sentences.sentence_bounds([doc], [text])[0]
            assert len(bounds) <= most_sentences(text)
            for span in merge_citation_spans(text, row["cite_spans"], doc.to_array("IDX").tolist()):
                if text_follows_citation(text, span.end, TEXT_AFTER_CITATION):
                    followed += 1
                    start, end = next((s, e) for s, e in bounds if s < span.end <= e)
                    assert start > span.start or TEXT_AFTER_CITATION.search(text[span.end : end])
    assert followed > 200


@pytest.mark.parametrize(
    ("text", "citation", "follows"),
    [
        ("Shown before [1] and then again here.", "[1]", True),
        ("Shown before [1]. And then again here.", "[1]", False),  # a period: a boundary may fall there
        ("Shown before [1] and (then) again.", "[1]", False),  # a bracket within the next words
        ("Shown before [1] for 12. items.", "[1]", False),  # a numbered list item may start a line
        ("Shown by (Smith, 2019) The next one.", "(Smith, 2019)", False),  # a parenthetical sentence may end there
        ("Shown by (Smith, 2019) and the next one.", "(Smith, 2019)", True),
        ('He said " (see it (Smith, 2019) and the next words) " here.', "(Smith, 2019)", False),  # line breaks
        ("Shown before [1] end ", "[1]", False),  # the spaces after the last word belong to no sentence
        ("Shown before.[1] Next one came.", "[1]", False),  # a numbered reference after a period ends a sentence
        ("Shown before.12 34 Next one came.", "12", False),  # ... wherever the reference ends
        ("Shown before 12 34 next one came.", "12", True),
        ("Shown before [1] The next one came.", "[1]", True),  # no period before it: no numbered reference
    ],
)
def test_text_after_a_citation_is_proved_only_without_boundary_sites(text, citation, follows):
    end = text.index(citation) + len(citation)
    assert text_follows_citation(text, end, TEXT_AFTER_CITATION) is follows
    if follows:  # the splitter agrees: the citation's sentence goes on after it
        bounds = splitter().split(text)
        sentence_end = next(e for s, e in bounds if s < end <= e)
        assert TEXT_AFTER_CITATION.search(text[end:sentence_end])


def test_spans_merged_without_tokens_are_merged_as_with_them(real_papers):
    from citeworth_assets.lib.citeworth.citations import merge_citation_spans

    decided = 0
    for paper in real_papers:
        for row in paper.paragraphs:
            if len(row["cite_spans"]) < 2:
                continue
            for below in (1, 2, 3):
                quick = merged_without_tokens(row["text"], row["cite_spans"], below)
                if quick is not None:
                    starts = next(splitter().tokenize([row["text"]])).to_array("IDX").tolist()
                    assert quick == merge_citation_spans(row["text"], row["cite_spans"], starts, below), row["text"]
                    decided += below == 2
    assert decided > 300
    gap = [{"start": 0, "end": 3, "text": "[1,"}, {"start": 4, "end": 6, "text": "2]"}]
    assert [s.text for s in merged_without_tokens("[1, 2] x", gap, 2)] == ["[1, 2]"]
    far = [{"start": 0, "end": 3, "text": "[1]"}, {"start": 8, "end": 11, "text": "[2]"}]
    assert len(merged_without_tokens("[1] and [2]", far, 2)) == 2
    assert merged_without_tokens("[1], [2]", [far[0], {"start": 5, "end": 8, "text": "[2]"}], 2) is None


def test_fast_list_item_expressions_find_what_pysbd_finds():
    import random
    import re

    from citeworth_assets.lib.sentences import FAST_LIST_PATTERNS, ORIGINAL_LIST_ITEMS

    splitter()
    draw = random.Random(3)
    for _ in range(20_000):
        text = "".join(draw.choice("ab (.)\n\t1xA\u00a0") for _ in range(draw.randint(0, 12)))
        for name, fast in FAST_LIST_PATTERNS.items():
            assert re.findall(fast, text) == re.findall(ORIGINAL_LIST_ITEMS[name], text), (name, text)


def test_sentence_bound_counts_every_site():
    assert most_sentences("no mark at all") == 1
    assert most_sentences("One. Two! Three?") == 4
    assert most_sentences("Item 1. first") == 3  # a period after a digit may open a numbered list item
    assert most_sentences("A (b) c\n") == 9


def test_tokens_without_lexical_attributes_are_the_same(real_papers):
    nlp = spacy.blank("en")
    nlp.tokenizer = combined_rule_tokenizer(nlp)
    texts = [row["text"] for paper in real_papers for row in paper.paragraphs][:1500]
    lean = splitter().tokenize(texts)
    for text, doc, full in zip(texts, lean, nlp.tokenizer.pipe(texts)):
        assert doc.to_array("IDX").tolist() == full.to_array("IDX").tolist(), text
        assert doc.to_array("LENGTH").tolist() == full.to_array("LENGTH").tolist(), text


@pytest.mark.slow  # a few seconds: make test runs it, make test-fast leaves it out
def test_same_sentences_as_scispacy_on_converted_arxiv_paragraphs(real_papers):
    """pysbd's shortcuts (abbreviation rewrites skipped, list-item expressions) on real arXiv text."""
    from citeworth_assets.lib import sentences

    fast = splitter()
    nlp = spacy.blank("en")
    nlp.tokenizer = combined_rule_tokenizer(nlp)
    nlp.add_pipe("pysbd_sentencizer")
    texts = [row["text"] for paper in real_papers[:40] for row in paper.paragraphs if row["cite_spans"]][::3]
    with sentences.pysbd_as_installed():
        reference = [[(s.start_char, s.end_char) for s in nlp(text).sents] for text in texts]
    assert len(texts) > 200
    assert [fast.split(text) for text in texts] == reference
