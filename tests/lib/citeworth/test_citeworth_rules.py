"""CiteWorth rules, with cases written from the paper's text (CiteWorth §3, Table 1, Appendices A and B)."""

import json
import random
import re
import time

import pytest
from builders import cite_spans as spans_of
from builders import s2orc_paragraph as paragraph

from citeworth_assets.lib.citeworth.citations import (
    IMPROVED_SEPARATORS,
    RANGE_SEPARATORS,
    contains_numeric_citation,
    delete_hanging_punctuation,
    merge_citation_spans,
    remove_citations,
)
from citeworth_assets.lib.citeworth.cleaning import clean_papers
from citeworth_assets.lib.citeworth.dataset import release_record
from citeworth_assets.lib.citeworth.partition import paragraph_row
from citeworth_assets.lib.citeworth.rules import (
    CITEWORTH_2021,
    CITEWORTH_IMPROVED,
    rule_set,
)
from citeworth_assets.lib.papers import PaperInput
from citeworth_assets.lib.sentences import splitter

PUBLISHED_NUMERIC = re.compile(r"\[([0-9]+\s*[,-;]*\s*)*[0-9]+\s*\]")
LITERAL_NUMERIC = re.compile(r"\[([0-9]+\s*[,;\-\u2013]*\s*)*[0-9]+\s*\]")


def filler(index):
    """A paragraph that passes and brings 3 citations, so that a paper has more than 5 spans."""
    text = (
        "Cell cultures were grown under standard conditions as described before [11]. "
        "The medium was replaced every second day during the whole experiment. "
        "Samples were analysed with the protocol used in earlier studies [12], [13]."
    )
    return paragraph(text, "[11]", "[12]", "[13]", section="Methods", index=index)


def clean(*paragraphs, rules=CITEWORTH_2021):
    (result,) = clean_papers([PaperInput("p1", list(paragraphs))], rules, splitter())
    return result


def verdict_of(result, index=0):
    accepted = {a.paragraph["paragraph_index"]: a for a in result.accepted}
    if index in accepted:
        return [(s.label, s.text) for s in accepted[index].verdict.samples]
    return next(d.reason for d in result.drops if d.paragraph_index == index)


# Table 1 of the paper: excerpts of training samples, cite-worthy sentences with their citations removed.
BIOLOGY = (
    "Wood Frogs (Rana sylvatica) are a charismatic species of frog common in much of North America. They breed in "
    "explosive choruses over a few nights in late winter to early spring. The incidence in Wood Frogs was associated "
    "with a die-off of frogs during the breeding chorus in the Sylamore District of the Ozark National Forest in "
    "Arkansas (Trauth et al., 2000)."
)
COMPUTER_SCIENCE = (
    "Land use or cover change is a direct reflection of human activity, such as land use, urban expansion, and "
    "architectural planning, on the earth's surface caused by urbanization [1]. Remote sensing images are important "
    "data sources that can efficiently detect land changes. Meanwhile, remote sensing image-based change detection is "
    "the change identification of surficial objects or geographic phenomena through the remote observation of two or "
    "more different phases [2]."
)


def test_table_1_biology_excerpt():
    result = clean(paragraph(BIOLOGY, "(Trauth et al., 2000)"), filler(1), filler(2))
    labels = verdict_of(result)
    assert [label for label, _ in labels] == ["non-check-worthy", "non-check-worthy", "check-worthy"]
    assert labels[2][1].endswith("Ozark National Forest in Arkansas.")


def test_table_1_computer_science_excerpt():
    result = clean(paragraph(COMPUTER_SCIENCE, "[1]", "[2]"), filler(1), filler(2))
    labels = verdict_of(result)
    assert [label for label, _ in labels] == ["check-worthy", "non-check-worthy", "check-worthy"]
    assert labels[0][1].endswith("caused by urbanization.") and labels[2][1].endswith("different phases.")
    record = release_record(paragraph_row(CITEWORTH_2021, result, result.accepted[0]))
    assert record["samples"][0]["citation_text"] == ["[1]"] and record["samples"][0]["ref_ids"] == [["BIBREF0"]]
    assert "citation_text" not in record["samples"][1] and record["samples"][1]["ref_ids"] is None


def test_inline_citation_of_section_3_1_is_ignored():
    text = (
        "The work of Authors et al. (2019) has shown this in previous work. We follow the same setting in all our "
        "experiments here. The results are reported in the tables below."
    )
    assert verdict_of(clean(paragraph(text, "Authors et al. (2019)"), filler(1), filler(2))) == "citation_not_bracketed"
    # With only the year marked, the citation is not at the end of its sentence whatever the boundaries (decided
    # before splitting), and "et al" is left over.
    assert verdict_of(clean(paragraph(text, "(2019)"), filler(1), filler(2))) == "citation_not_at_sentence_end"
    smith = text.replace("Authors et al. (2019)", "Smith (2019)")
    assert verdict_of(clean(paragraph(smith, "(2019)"), filler(1), filler(2))) == "citation_not_at_sentence_end"


def test_hanging_citation_of_section_3_2_is_caught():
    text = (
        "This result has been shown in previous work by [3]. We follow the same setting in all our experiments here. "
        "The results are reported in the tables below."
    )
    assert verdict_of(clean(paragraph(text, "[3]"), filler(1), filler(2))) == "hanging_citation"


def test_the_marker_left_by_removing_a_year_span_drops_the_paragraph():
    text = (
        "This was shown by the work of Author et al. (2019). We follow the same setting in all our experiments here. "
        "The results are reported in the tables below."
    )
    assert verdict_of(clean(paragraph(text, "(2019)"), filler(1), filler(2))) == "leftover_citation_marker"


def test_paper_rules_first_citation_format_and_more_than_five_spans():
    inline = paragraph(COMPUTER_SCIENCE.replace("[1]", "Smith (2019)"), "Smith (2019)", "[2]")
    assert clean(inline, filler(1), filler(2)).paper_reason is None  # "Smith (2019)" holds a year citation
    named = paragraph(COMPUTER_SCIENCE.replace("[1]", "Smith et al."), "Smith et al.", "[2]")
    assert clean(named, filler(1), filler(2)).paper_reason == "first_citation_not_numeric_or_year"
    assert clean(paragraph(COMPUTER_SCIENCE, "[1]", "[2]"), filler(1)).paper_reason == "five_or_fewer_citation_spans"
    assert clean(paragraph(COMPUTER_SCIENCE, "[1]", "[2]"), filler(1), filler(2)).paper_reason is None
    other = paragraph(COMPUTER_SCIENCE, "[1]", "[2]", section="Acknowledgments")
    assert clean(other).paper_reason == "no_cited_permissible_paragraph"


def test_paragraph_with_fewer_than_three_sentences_is_skipped():
    text = "Remote sensing images are important data sources [4]. They detect land changes efficiently."
    assert verdict_of(clean(paragraph(text, "[4]"), filler(1), filler(2))) == "fewer_than_3_sentences"


def test_adjacent_spans_are_merged_by_token_distance():
    text = "It was shown before [1] [2] [3] and also [4]."
    tokens = splitter().nlp.tokenizer(text)
    merged = merge_citation_spans(text, spans_of(text, "[1]", "[2]", "[3]", "[4]"), [t.idx for t in tokens])
    assert [span.text for span in merged] == ["[1] [2] [3]", "[4]"]
    assert merged[0].ref_ids == ["BIBREF0", "BIBREF1", "BIBREF2"]


def test_citation_removal_and_hanging_punctuation():
    text = "Results were good [1] , as reported [2]; see the tables."
    spans = merge_citation_spans(text, spans_of(text, "[1]", "[2]"), [m.start() for m in re.finditer(r"\S+", text)])
    assert remove_citations(text, 0, len(text), spans) == "Results were good, as reported; see the tables."
    assert delete_hanging_punctuation("The measured values are listed in ,.") == "The measured values are listed in."
    assert delete_hanging_punctuation("Short one ,.") == "Short one ,."  # 20 characters or fewer: left alone


def test_published_numeric_expression_is_a_character_range():
    assert CITEWORTH_2021.numeric_citation("see [1.5]") and CITEWORTH_2021.numeric_citation("ratio [2/3]")
    assert not CITEWORTH_IMPROVED.numeric_citation("see [1.5]") and not CITEWORTH_IMPROVED.numeric_citation("[2/3]")
    assert CITEWORTH_IMPROVED.numeric_citation("[3\u20136]") and not CITEWORTH_2021.numeric_citation("[3\u20136]")
    assert CITEWORTH_2021.numeric_citation("[1, 4]") and CITEWORTH_IMPROVED.numeric_citation("[1-3, 7]")


@pytest.mark.parametrize(
    "separators, expression", [(RANGE_SEPARATORS, PUBLISHED_NUMERIC), (IMPROVED_SEPARATORS, LITERAL_NUMERIC)]
)
def test_numeric_automaton_agrees_with_the_expression(separators, expression):
    alphabet = list("[]0123456789 ,.;:/-\u2013\n\tx(")
    generator = random.Random(7)
    for _ in range(30_000):
        text = "".join(generator.choice(alphabet) for _ in range(generator.randint(0, 14)))
        assert contains_numeric_citation(text, separators) == (expression.search(text) is not None), repr(text)


def test_numeric_automaton_is_linear_where_the_expression_backtracks():
    text = "[" + "1 " * 5_000 + ", ,"
    started = time.perf_counter()
    assert not contains_numeric_citation(text, RANGE_SEPARATORS)
    assert time.perf_counter() - started < 1.0


def test_et_al_inside_words():
    text = (
        "The metal content of fetal tissue was measured twice [5]. Samples were frozen at once after collection. "
        "All measurements were repeated three times."
    )
    faithful = clean(paragraph(text, "[5]"), filler(1), filler(2))
    assert verdict_of(faithful) == "leftover_citation_marker"
    improved = clean(paragraph(text, "[5]"), filler(1), filler(2), rules=rule_set("citeworth_2021+et_al_word_boundary"))
    assert [label for label, _ in verdict_of(improved)] == ["check-worthy", "non-check-worthy", "non-check-worthy"]


@pytest.mark.parametrize(
    "title", ["2 Related Work", "II. INTRODUCTION", "Methods:", "3.1 Experimental results", "RELATED WORKS"]
)
def test_numbered_and_decorated_titles_qualify_only_when_normalized(title):
    assert CITEWORTH_2021.permissible_section(title) is (title == "RELATED WORKS")
    assert CITEWORTH_IMPROVED.permissible_section(title)
    assert not CITEWORTH_IMPROVED.permissible_section("Acknowledgments")


def test_abbreviation_aware_splitting_joins_sentences_after_refs():
    text = (
        "The effect is shown in Refs. 4 and 5 for rats as described [6]. "
        "The values were stable over time in all cases. They agree with the model."
    )
    faithful = splitter().split(text)
    improved = rule_set("citeworth_2021+abbreviation_aware_splitting")
    from citeworth_assets.lib.citeworth.rules import adjust_sentences

    joined = adjust_sentences(text, faithful, improved)
    assert len(joined) == 3 and len(faithful) == 4


def test_unknown_rule_set_names_the_setting():
    with pytest.raises(ValueError, match="CITEWORTH_RULES"):
        rule_set("citeworth_1999")


def test_real_papers_give_what_the_published_code_gives(shared_data):
    """Expected output computed by running the published construction code with the same splitter."""
    from citeworth_assets.lib.jsonl import IssueLog
    from citeworth_assets.lib.s2orc.records import RecordReporter, paragraph_rows

    files = sorted((shared_data / "s2orc-20200705" / "pdf_parses").glob("*.json")) + sorted(
        (shared_data / "cord19" / "pdf_json").glob("*.json")
    )
    papers = []
    for path in files:
        record = json.loads(path.read_text())
        rows = list(paragraph_rows(record, RecordReporter(IssueLog(), str(path), 1, 0, record["paper_id"])))
        papers.append(PaperInput(record["paper_id"], rows))
    labels = {}
    for result in clean_papers(papers, CITEWORTH_2021, splitter()):
        for accepted in result.accepted:
            code = "".join("C" if s.label == "check-worthy" else "N" for s in accepted.verdict.samples)
            labels[(result.paper.paper_id, accepted.paragraph["paragraph_index"])] = code
    assert labels == {
        ("06ced00a5fc04215949aa72528f2eeaae1d58927", 0): "CNNNC",
        ("6b0567729c2143a66d737eb0a2f63f2dce2e5a7d", 0): "CNNNNCNN",
    }


@pytest.mark.parametrize(
    ("title", "normalized"),
    [
        ("2 Related\nWork", "related work"),
        ("Introduction\n", "introduction"),
        ("1.\nIntroduction", "introduction"),
        ("\n3.1 Experimental\n results.\n", "experimental results"),
        ("Methods:\n\n", "methods"),
    ],
)
def test_section_titles_with_line_breaks_normalize_without_error(title, normalized):
    from citeworth_assets.lib.sections import normalize_section_title

    assert normalize_section_title(title) == normalized
    assert CITEWORTH_IMPROVED.permissible_section(title)
    assert not CITEWORTH_2021.permissible_section(title)  # the published comparison is on section.lower() as it is


def test_a_paper_with_a_line_break_in_a_section_title_is_cleaned():
    text = COMPUTER_SCIENCE + " Change detection is an active research area with many open questions."
    result = clean(
        paragraph(text, "[1]", "[2]", section="1\nIntroduction"), filler(1), filler(2), rules=CITEWORTH_IMPROVED
    )
    assert [label for label, _ in verdict_of(result)] == [
        "check-worthy",
        "non-check-worthy",
        "check-worthy",
        "non-check-worthy",
    ]
