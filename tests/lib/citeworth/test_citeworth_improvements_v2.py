"""The improvements of citeworth_improved_v2, on the issue's own examples and real CORD-19 papers; each alone
(citeworth_2021+<name>) changes what the issue says and the faithful set does not change."""

import json

import pytest
from builders import cite_spans as spans_of
from builders import s2orc_paragraph as paragraph

from citeworth_assets.lib.citeworth.citations import first_citation_group, tidy_cut
from citeworth_assets.lib.citeworth.cleaning import clean_papers
from citeworth_assets.lib.citeworth.paper_files import read_paper_files
from citeworth_assets.lib.citeworth.quotes import orient_quotes
from citeworth_assets.lib.citeworth.rule_units import no_dangling_reference_phrase
from citeworth_assets.lib.citeworth.rules import (
    CITEWORTH_2021,
    CITEWORTH_IMPROVED,
    CITEWORTH_IMPROVED_V1,
    adjust_sentences,
    rule_set,
)
from citeworth_assets.lib.papers import PaperInput
from citeworth_assets.lib.sentences import splitter

FILLER = (
    "Cell cultures were grown under standard conditions as described before [11]. "
    "The medium was replaced every second day during the whole experiment. "
    "Samples were analysed with the protocol used in earlier studies [12], [13]."
)


def clean(tested, rules, first_in_paper=True):
    """A paper of the tested paragraph (index 0) and two that pass, so that it has enough citation spans; the tested
    one comes first (its first citation is the paper's) or last."""
    fillers = [paragraph(FILLER, "[11]", "[12]", "[13]", index=i, section="Methods") for i in (1, 2)]
    paragraphs = [tested, *fillers] if first_in_paper else [*fillers, tested]
    (result,) = clean_papers([PaperInput("p1", paragraphs)], rules, splitter())
    return result


def outcome(result, index=0):
    """The paragraph's cleaned sentences, or the reason it (or the paper) was dropped."""
    if result.paper_reason:
        return result.paper_reason
    for accepted in result.accepted:
        if accepted.paragraph["paragraph_index"] == index:
            return [sample.text for sample in accepted.verdict.samples]
    return next(drop.reason for drop in result.drops if drop.paragraph_index == index)


ALONE = lambda name: rule_set(f"citeworth_2021+{name}")


# --- grouped_first_citation -----------------------------------------------------------------------------------
NUMERIC_GROUP = (
    "Deep networks now dominate image recognition [22, 23]. They need large labelled data sets for training. "
    "Transfer learning reduces this need considerably [24]."
)
AUTHOR_YEAR_GROUP = (
    "Deep networks now dominate image recognition (Smith et al., 2019; Jones, 2020). They need large labelled data "
    "sets for training. Transfer learning reduces this need considerably (Brown, 2021)."
)


def test_the_first_citation_group_joins_grobid_fragments():
    assert first_citation_group(NUMERIC_GROUP, spans_of(NUMERIC_GROUP, "[22,", "23]", "[24]")) == "[22, 23]"
    spans = spans_of(AUTHOR_YEAR_GROUP, "(Smith et al., 2019;", "Jones, 2020)", "(Brown, 2021)")
    assert first_citation_group(AUTHOR_YEAR_GROUP, spans) == "(Smith et al., 2019; Jones, 2020)"
    # Spans with words between them are two citations: the first stays alone.
    assert first_citation_group(NUMERIC_GROUP, spans_of(NUMERIC_GROUP, "[22,", "[24]")) == "[22,"


@pytest.mark.parametrize(
    ("text", "pieces"),
    [
        (NUMERIC_GROUP, ("[22,", "23]", "[24]")),
        (AUTHOR_YEAR_GROUP, ("(Smith et al., 2019;", "Jones, 2020)", "(Brown, 2021)")),
    ],
    ids=["numeric", "author_year"],
)
def test_a_paper_whose_first_citation_is_a_fragment_is_kept_only_with_grouped_first_citation(text, pieces):
    first = paragraph(text, *pieces)
    assert outcome(clean(first, CITEWORTH_2021)) == "first_citation_not_numeric_or_year"
    assert outcome(clean(first, CITEWORTH_IMPROVED_V1)) == "first_citation_not_numeric_or_year"
    for rules in (ALONE("grouped_first_citation"), CITEWORTH_IMPROVED):
        assert outcome(clean(first, rules)) == [
            "Deep networks now dominate image recognition.",
            "They need large labelled data sets for training.",
            "Transfer learning reduces this need considerably.",
        ]


def test_a_real_cord19_paper_starting_with_a_split_group_passes_the_first_citation_check(shared_data):
    """d1aafb70...: its first citation '[1, 2, 3, 4, 5]' comes as the spans '[1,' '2,' '3,' '4,' '5]'."""
    (path,) = (shared_data / "cord19" / "pdf_json").glob("d1aafb70*.json")
    (paper,) = read_paper_files([path], [])
    first = next(p for p in paper.paragraphs if p["cite_spans"])
    assert [span["text"] for span in first["cite_spans"][:5]] == ["[1,", "2,", "3,", "4,", "5]"]
    (faithful,) = clean_papers([paper], CITEWORTH_2021, splitter())
    assert faithful.paper_reason == "first_citation_not_numeric_or_year"
    for rules in (ALONE("grouped_first_citation"), CITEWORTH_IMPROVED):
        (improved,) = clean_papers([paper], rules, splitter())
        assert improved.paper_reason is None
        assert {drop.reason for drop in improved.drops} and "first_citation_not_numeric_or_year" not in {
            d.reason for d in improved.drops
        }


# --- emptied_parenthetical --------------------------------------------------------------------------------------
DKIST = (
    "High-resolution spectra will come from the Solar Telescope (DKIST, [49, 56]). Its first light was in 2019 "
    "after a long construction period. The instrument suite covers the visible and infrared range [57]."
)


def test_an_emptied_parenthetical_loses_its_separator_and_brackets():
    first = paragraph(DKIST, "[49,", "56]", "[57]")
    assert (
        outcome(clean(first, CITEWORTH_2021, False))[0]
        == "High-resolution spectra will come from the Solar Telescope (DKIST,)."
    )
    for rules in (ALONE("emptied_parenthetical"), CITEWORTH_IMPROVED):
        assert (
            outcome(clean(first, rules, False))[0]
            == "High-resolution spectra will come from the Solar Telescope (DKIST)."
        )


@pytest.mark.parametrize(
    ("before", "after", "tidied"),
    [
        ("Telescope (DKIST,", ").", "Telescope (DKIST)."),
        ("Telescope (DKIST;", "] is", "Telescope (DKIST] is"),  # not the same bracket: the separator still goes
        ("Telescope (", ").", "Telescope."),
        ("Telescope (", ") is large.", "Telescope is large."),
        ("Telescope [", "], which", "Telescope, which"),
        ("Telescope (", "; DKIST).", "Telescope (DKIST)."),
        ("Telescope ", "is large.", "Telescope is large."),  # nothing left empty: unchanged
        ("as shown by Smith et al.", ").", "as shown by Smith et al.)."),
    ],
)
def test_tidy_cut(before, after, tidied):
    assert "".join(tidy_cut(before, after)) == tidied


# --- dangling_reference_phrase ----------------------------------------------------------------------------------
CLAY = (
    "Soil particles are grouped by size into classes like clay, silt or sand, see in particular [39]. "
    "Each class drains water at a very different rate. Mixtures behave in ways that are hard to predict [40]."
)


def test_a_pointer_phrase_left_pointing_at_nothing_drops_the_paragraph():
    first = paragraph(CLAY, "[39]", "[40]")
    assert (
        outcome(clean(first, CITEWORTH_2021))[0]
        == "Soil particles are grouped by size into classes like clay, silt or sand, see in particular."
    )
    for rules in (ALONE("dangling_reference_phrase"), CITEWORTH_IMPROVED):
        result = clean(first, rules)
        assert outcome(result) == "dangling_reference_phrase"
        (drop,) = [d for d in result.drops if d.paragraph_index == 0]
        assert drop.sentence_index == 0 and drop.sentence_text.endswith("see in particular.")


@pytest.mark.parametrize(
    "sentence",
    [
        "Classes differ like clay, silt or sand, see in particular.",
        "The method is known to converge, cf. e.g.",
        "The proof is given in, for example.",
        "Both are standard tools (see, e.g., the references therein).",
        "For the derivation we refer to, for instance.",
        "This was reported by, among others.",
    ],
)
def test_dangling_pointer_phrases(sentence):
    assert no_dangling_reference_phrase(sentence, CITEWORTH_IMPROVED) == "dangling_reference_phrase"


@pytest.mark.parametrize(
    "sentence",
    [
        "The topic was discussed at length in the literature.",
        "The effect was observed in mice.",
        "In particular, the clay fraction retains most water.",
        "The model was first proposed by Smith and Jones.",
        "See the appendix for the full derivation of the bound.",
        "Results are given in Table 2 for all data sets.",
    ],
)
def test_sentences_that_do_not_dangle(sentence):
    assert no_dangling_reference_phrase(sentence, CITEWORTH_IMPROVED) is None


# --- quote_aware_splitting ------------------------------------------------------------------------------------
GLUED = (
    "The sentiment of the sentence \u201dAre you surex \u201c is ambiguous, since it depends on the context of the "
    "conversation. Nevertheless, most annotators labelled it as negative. On the contrary, the sentence \u201dI am "
    "fine\u201c was labelled as positive by all of them."
)


def test_reversed_curly_quotes_no_longer_glue_sentences():
    faithful = splitter().split(GLUED)
    assert len(faithful) == 1  # pysbd takes the text between '“ is ambiguous' and '”I am' for a quotation
    adjusted = adjust_sentences(GLUED, faithful, ALONE("quote_aware_splitting"), splitter())
    assert [GLUED[a:b] for a, b in adjusted] == [
        "The sentiment of the sentence \u201dAre you surex \u201c is ambiguous, "
        "since it depends on the context of the conversation.",
        "Nevertheless, most annotators labelled it as negative.",
        "On the contrary, the sentence \u201dI am fine\u201c was labelled as positive by all of them.",
    ]
    assert adjust_sentences(GLUED, faithful, CITEWORTH_2021, splitter()) == faithful
    assert orient_quotes(GLUED) == GLUED.replace("\u201dAre", "\u201cAre").replace(
        "surex \u201c", "surex \u201d"
    ).replace("\u201dI am", "\u201cI am").replace("fine\u201c", "fine\u201d")


def test_a_glued_paragraph_is_cleaned_sentence_by_sentence_with_quote_aware_splitting():
    cited = paragraph(GLUED.replace("as negative.", "as negative [5]."), "[5]")
    assert outcome(clean(cited, CITEWORTH_2021, False)) == "fewer_than_3_sentences"
    for rules in (ALONE("quote_aware_splitting"), CITEWORTH_IMPROVED):
        assert outcome(clean(cited, rules, False))[1] == "Nevertheless, most annotators labelled it as negative."


@pytest.mark.parametrize(
    "text",
    [
        "He said \u201cno\u201d. Then he left the room quickly.",
        "The sentence \u201cAre you sure?\u201d is ambiguous. Nobody agreed.",
        "We call them \u201clobes\u201d, as in earlier work.",
        "A lone \u201c mark between spaces is left alone.",
    ],
)
def test_quotes_the_right_way_round_are_left_as_they_are(text):
    assert orient_quotes(text) is text


def test_real_paragraphs_keep_their_boundaries_with_quote_aware_splitting(shared_data):
    """Every paragraph of the shared S2ORC, CORD-19 and unarXive 2022 papers (52 hold curly quotes, all the right way
    round): quote-aware splitting leaves the text to split, hence every boundary, as it is."""
    texts = []
    for path in sorted((shared_data / "cord19" / "pdf_json").glob("*.json")) + sorted(
        (shared_data / "s2orc-20200705" / "pdf_parses").glob("*.json")
    ):
        texts += [p["text"] for p in json.loads(path.read_text())["body_text"]]
    for path in sorted((shared_data / "unarxive-2022").glob("*.jsonl")):
        texts += [p["text"] for line in path.read_text().splitlines() for p in json.loads(line)["body_text"]]
    quoted = [text for text in texts if "\u201c" in text or "\u201d" in text]
    assert len(texts) > 3000 and len(quoted) >= 50
    assert all(orient_quotes(text) is text for text in texts)
    rules = ALONE("quote_aware_splitting")
    for text in quoted:
        bounds = splitter().split(text)
        assert adjust_sentences(text, bounds, rules, splitter()) == bounds


# --- the faithful set is unchanged ------------------------------------------------------------------------------
def test_the_faithful_set_does_not_use_the_new_improvements():
    new = ("grouped_first_citation", "emptied_parenthetical", "dangling_reference_phrase", "quote_aware_splitting")
    assert not any(CITEWORTH_2021.uses(name) or CITEWORTH_IMPROVED_V1.uses(name) for name in new)
    assert all(CITEWORTH_IMPROVED.uses(name) for name in new)
    assert no_dangling_reference_phrase not in CITEWORTH_2021.units()
    # What the faithful set gives on the issue's examples is asserted beside each improvement above; the real papers'
    # parity with the published code is test_real_papers_give_what_the_published_code_gives.


@pytest.mark.parametrize(
    ("sentence", "marker", "problem"),
    [
        ("High-resolution spectra will come from the Solar Telescope (DKIST,).", None, "emptied_brackets"),
        ("High-resolution spectra will come from the Solar Telescope ().", None, "emptied_brackets"),
        ("Soil particles are grouped into clay, silt or sand, see in particular.", "hanging_reference", None),
        ("This was reported for many soils by, among others.", "hanging_reference", None),
        ("High-resolution spectra will come from the Solar Telescope (DKIST).", None, None),
        ("Soil particles are grouped into clay, silt or sand in particular.", None, None),
    ],
)
def test_the_quality_proxies_see_the_remnants_independently_of_the_rules(sentence, marker, problem):
    from citeworth_assets.lib.citeworth.quality import citation_marker, format_problem

    assert (citation_marker(sentence), format_problem(sentence)) == (marker, problem)
