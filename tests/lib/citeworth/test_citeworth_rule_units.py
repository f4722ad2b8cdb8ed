"""Rule units, the reason registry, thresholds, improvements and versioned rule-set names."""

import dataclasses

import pytest
from builders import s2orc_paragraph as paragraph

from citeworth_assets.lib.citeworth import rule_units
from citeworth_assets.lib.citeworth.citations import CitationSpan, Sentence
from citeworth_assets.lib.citeworth.cleaning import clean_papers
from citeworth_assets.lib.citeworth.improvements import Improvement
from citeworth_assets.lib.citeworth.partition import rules_key
from citeworth_assets.lib.citeworth.reasons import LEVELS, PIPELINE_REASONS, REASONS
from citeworth_assets.lib.citeworth.rule_units import (
    Rule,
    citations_bracketed_at_end,
    long_enough,
    rule,
)
from citeworth_assets.lib.citeworth.rules import (
    CITEWORTH_2021,
    CITEWORTH_IMPROVED,
    CITEWORTH_IMPROVED_V1,
    CITEWORTH_IMPROVED_V2,
    rule_set,
)
from citeworth_assets.lib.domains import drop_reason_table
from citeworth_assets.lib.filters import UnregisteredReason
from citeworth_assets.lib.papers import PaperInput
from citeworth_assets.lib.sentences import splitter
from citeworth_assets.lib.settings import SettingError

ALL_SETS = [CITEWORTH_2021, CITEWORTH_IMPROVED, *(CITEWORTH_2021.with_improvements(i) for i in Improvement)]
UNITS = {unit.name: unit for rules in ALL_SETS for unit in rules.units()}


def test_every_reason_a_unit_can_give_is_registered_and_every_registered_reason_has_a_unit():
    declared = {reason for unit in UNITS.values() for reason in unit.reasons}
    assert declared <= REASONS.keys()
    assert declared == REASONS.keys() - PIPELINE_REASONS  # no registered reason that no rule or the pipeline gives
    module_units = {name for name, value in vars(rule_units).items() if isinstance(value, Rule)}
    assert module_units == set(UNITS)  # every unit of the module is in a rule set


def test_an_unregistered_reason_fails_at_declaration_and_at_run_time():
    with pytest.raises(UnregisteredReason, match="sentence_is_boring"):
        rule("sentence", "sentence_is_boring")(lambda text, rules: True)
    with pytest.raises(ValueError, match="level"):
        rule("word", "sentence_too_short")(lambda text, rules: True)
    liar = rule("sentence", "sentence_too_short", "sentence_bad_ending")(lambda text, rules: "sentence_is_boring")
    with pytest.raises(UnregisteredReason, match="liar|<lambda>"):
        liar("Anything at all here.", CITEWORTH_2021)


def test_unit_names_and_published_order_are_stable():
    names = lambda units: [unit.name for unit in units]
    assert names(CITEWORTH_2021.cited_sentence_rules) == [
        "long_enough",
        "capitalized",
        "ends_with_final_mark",
        "no_leftover_citation_marker",
        "no_hanging_citation",
    ]
    assert names(CITEWORTH_2021.plain_sentence_rules) == [
        "no_missed_citation",
        "capitalized",
        "ends_with_final_mark",
        "long_enough",
        "no_hanging_citation",
    ]
    assert names(CITEWORTH_2021.paper_rules) == ["has_cited_permissible_paragraph", "enough_citation_spans"]
    # Improvements change units' behaviour, not the order; one adds a unit after the hanging rule.
    assert CITEWORTH_IMPROVED_V1.units() == CITEWORTH_2021.units()
    assert names(CITEWORTH_IMPROVED.cited_sentence_rules)[-2:] == [
        "no_hanging_citation",
        "no_dangling_reference_phrase",
    ]
    assert names(CITEWORTH_IMPROVED.plain_sentence_rules)[-2:] == [
        "no_hanging_citation",
        "no_dangling_reference_phrase",
    ]
    assert set(CITEWORTH_IMPROVED.units()) - set(CITEWORTH_2021.units()) == {rule_units.no_dangling_reference_phrase}


def test_units_judge_single_items():
    assert long_enough("Cells divide quickly.", CITEWORTH_2021) is None  # 21 characters
    assert long_enough("Cells divide quickly", CITEWORTH_2021) == "sentence_too_short"
    text = "It was shown [1] in mice. More follows."
    sentence = Sentence(0, 0, 25, text[:25], [CitationSpan(13, 16, "[1]", ["b1"], [None])], False)
    assert citations_bracketed_at_end(sentence, CITEWORTH_2021) == "citation_not_at_sentence_end"
    sentence.citations = [CitationSpan(13, 16, "Ref 1", ["b1"], [None])]
    assert citations_bracketed_at_end(sentence, CITEWORTH_2021) == "citation_not_bracketed"


def test_reason_rows_for_the_warehouse():
    rows = REASONS.rows()
    assert [row["reason"] for row in rows if row["level"] == "paper"] == [
        "no_cited_permissible_paragraph",
        "first_citation_not_numeric_or_year",
        "five_or_fewer_citation_spans",
        "internal_error",
    ]
    assert len(rows) == len(REASONS) and {row["level"] for row in rows} == set(LEVELS)
    assert all(row["description"] and "\n" not in row["description"] for row in rows)
    published = [row for row in drop_reason_table().to_pylist() if row["domain"] == "citeworth"]
    assert [{key: row[key] for key in rows[0]} for row in published] == rows
    assert {row["counted_in"] for row in published} == {"citeworth_cleaning, citeworth_arxiv_cleaning"}


CITED = (
    "Remote sensing images are important data sources [1]. They detect land changes efficiently in every region. "
    "Change detection compares two or more phases [2], [3]."
)


def clean(rules, *paragraphs):
    (result,) = clean_papers([PaperInput("p1", list(paragraphs))], rules, splitter())
    return result


def test_thresholds_are_fields_with_the_published_defaults():
    assert (
        CITEWORTH_2021.short_sentence_chars,
        CITEWORTH_2021.few_citation_spans,
        CITEWORTH_2021.merge_below_tokens,
    ) == (20, 5, 2)
    assert (CITEWORTH_2021.min_sentences, CITEWORTH_2021.hanging_punctuation_longer_than) == (3, 20)
    three_spans = paragraph(CITED, "[1]", "[2]", "[3]")
    assert clean(CITEWORTH_2021, three_spans).paper_reason == "five_or_fewer_citation_spans"
    lenient = dataclasses.replace(CITEWORTH_2021, name="lenient", few_citation_spans=2)
    assert clean(lenient, three_spans).paper_reason is None and clean(lenient, three_spans).accepted
    two_sentences = dataclasses.replace(lenient, min_sentences=4)
    assert [d.reason for d in clean(two_sentences, three_spans).drops] == ["fewer_than_3_sentences"]
    strict = dataclasses.replace(lenient, short_sentence_chars=60)
    assert [d.reason for d in clean(strict, three_spans).drops] == ["sentence_too_short"]


def test_a_paper_dropped_for_its_first_citation_is_not_scanned_further():
    bad_first = paragraph(CITED.replace("[1]", "Smith et al."), "Smith et al.", "[2]", "[3]", index=1)
    other = lambda index: paragraph(CITED, "[1]", section="Acknowledgments", index=index)
    result = clean(CITEWORTH_2021, other(0), bad_first, other(2))
    assert [(d.level, d.paragraph_index, d.reason) for d in result.drops] == [
        ("paper", None, "first_citation_not_numeric_or_year"),
        ("paragraph", 0, "section_not_permissible"),
    ]


def test_improvements_are_an_enumeration_and_typos_fail_at_once():
    assert CITEWORTH_IMPROVED.uses(Improvement.ET_AL_WORD_BOUNDARY) and CITEWORTH_IMPROVED.uses("et_al_word_boundary")
    assert not CITEWORTH_2021.uses("et_al_word_boundary")
    assert all(improvement.description for improvement in Improvement)
    with pytest.raises(ValueError, match="et_al_word_boundry.*et_al_word_boundary"):
        CITEWORTH_2021.uses("et_al_word_boundry")
    with pytest.raises(ValueError, match="unknown improvement"):
        CITEWORTH_2021.with_improvements("typo")
    with pytest.raises(
        SettingError, match=r"CITEWORTH_RULES / --rules.*citeworth_2021.*citeworth_improved_v1.*et_al_word_boundary"
    ):
        rule_set("citeworth_2021+typo")
    with pytest.raises(SettingError, match="CITEWORTH_RULES / --rules"):
        rule_set("citeworth_improved_v0")


def test_rule_set_names_are_versioned_and_the_plain_name_selects_the_latest():
    assert rule_set("citeworth_improved") is CITEWORTH_IMPROVED_V2 is CITEWORTH_IMPROVED
    assert rule_set("citeworth_improved_v1") is CITEWORTH_IMPROVED_V1  # an earlier version stays resolvable
    assert CITEWORTH_IMPROVED_V2.improvements == frozenset(Improvement)
    assert CITEWORTH_IMPROVED_V1.improvements == frozenset(Improvement) - {
        Improvement.GROUPED_FIRST_CITATION,
        Improvement.EMPTIED_PARENTHETICAL,
        Improvement.DANGLING_REFERENCE_PHRASE,
        Improvement.QUOTE_AWARE_SPLITTING,
    }
    assert rule_set("citeworth_improved+et_al_word_boundary").name == "citeworth_improved_v2+et_al_word_boundary"
    v1_plus = rule_set("citeworth_improved_v1+dangling_reference_phrase")
    assert v1_plus.name == "citeworth_improved_v1+dangling_reference_phrase"
    assert v1_plus.cited_sentence_rules == CITEWORTH_IMPROVED_V2.cited_sentence_rules
    assert rule_set("citeworth_2021").name == "citeworth_2021"
    assert rules_key(rule_set("citeworth_improved").name, "20200705v1_0") == "citeworth_improved_v2.20200705v1_0"


def test_drops_on_real_papers_have_registered_reasons_at_their_level(shared_data):
    from citeworth_assets.lib.citeworth.paper_files import read_paper_files

    folders = [shared_data / "s2orc-20200705" / "pdf_parses", shared_data / "cord19" / "pdf_json"]
    papers = list(read_paper_files(folders, []))
    drops = [
        drop
        for rules in (CITEWORTH_2021, CITEWORTH_IMPROVED)
        for r in clean_papers(papers, rules, splitter())
        for drop in r.drops
    ]
    assert {drop.level for drop in drops} == {"paper", "paragraph"}
    for drop in drops:
        level = REASONS[drop.reason].level
        assert (level == "paper") == (drop.level == "paper"), drop
        assert (drop.sentence_index is not None) <= (level == "sentence"), drop


def test_the_cli_names_the_setting_for_an_unknown_improvement(tmp_path):
    from click.testing import CliRunner

    from citeworth_assets.cli import main

    (tmp_path / "p.json").write_text('{"paper_id": "1", "body_text": []}')
    result = CliRunner().invoke(main, ["clean-paper", str(tmp_path / "p.json"), "--rules", "citeworth_2021+et_al"])
    assert (
        result.exit_code == 2
        and "CITEWORTH_RULES / --rules" in result.output
        and "et_al_word_boundary" in result.output
    )


def test_the_dataset_format_check_uses_the_rule_sets_own_rules():
    """The check on the dataset (CiteWorth §3.2: sentences over 20 characters, a capital first, a final mark last)
    applies the rule set's units with its threshold, not a copy of them."""
    from dataclasses import replace

    from citeworth_assets.lib.citeworth.quality import fails_sentence_format

    good = "Cells divide quickly in culture."
    assert not fails_sentence_format(good, CITEWORTH_2021)
    for bad in ("", "Cells divide quickly", "cells divide quickly in culture.", "Cells divide quickly in culture"):
        assert fails_sentence_format(bad, CITEWORTH_2021), bad
    assert fails_sentence_format(good, replace(CITEWORTH_2021, short_sentence_chars=40))
