"""CiteWorth rule units: each named check judges one paper, paragraph, sentence or text (CiteWorth §3).

A unit (:class:`Rule`, a criterion of :mod:`~citeworth_assets.lib.filters`) gives None or a registered reason
(:mod:`~citeworth_assets.lib.citeworth.reasons`); rule sets (:mod:`~citeworth_assets.lib.citeworth.rules`) hold
ordered tuples of units, each tuple a filter, and the thresholds the units read; the cleaning pipeline applies
each filter with :func:`~citeworth_assets.lib.filters.first_failure`, the first failing unit giving the reason.
The Appendix B regular expressions are kept exactly as the published code writes them (``[,-;]`` is a character
*range*, ``et( )?al`` has no word boundary).
"""

from __future__ import annotations

import re
import string
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from citeworth_assets.lib.citeworth.citations import (
    CitationSpan,
    Sentence,
    brackets_only,
    first_citation_group,
    visibly_not_bracketed,
)
from citeworth_assets.lib.citeworth.improvements import DANGLING_REFERENCE
from citeworth_assets.lib.citeworth.reasons import LEVELS, REASONS
from citeworth_assets.lib.filters import Criterion, criterion

if TYPE_CHECKING:
    from citeworth_assets.lib.citeworth.rules import RuleSet

# Appendix B and the published code, verbatim.
YEAR_CITATION = re.compile(r"\(?[12][0-9]{3}[a-z]?\s*\)")
YEAR_OR_ET_AL = re.compile(r"\(?[12][0-9]{3}[a-z]?\s*\)|et( )?al(\.?)")
HANGING_CITATION = re.compile(
    r"\s+\(?(\(\s*\)|like|reference|including|include|with|for instance|for example|see also|at|following|of|from|to"
    r"|in|by|see|as|e\.?g\.?(,)?|viz(\.)?(,)?)\s*(,)*(-)*[\)\]]?\s*[.?!]\s*$"
)
with warnings.catch_warnings():  # string.punctuation holds '[' inside a set; re warns, the meaning is unchanged
    warnings.simplefilter("ignore", FutureWarning)
    TEXT_AFTER_CITATION = re.compile("[^" + string.punctuation + "]\\s+")


Rule = Criterion  # a CiteWorth rule unit is a criterion of the shared filter contract (lib/filters.py)


def rule(level: str, *reasons: str) -> Callable[[Callable], Rule]:
    """Declare a function ``check(subject, rules)`` as a rule unit named after it, judging a ``level`` item."""
    if level not in LEVELS:
        raise ValueError(f"rule of level {level!r}: the level is not one of {LEVELS}")
    return criterion(REASONS, *reasons)


@dataclass
class CitedParagraph:
    """A selected paragraph (an ``s2orc_paragraphs`` row) with its merged citation spans."""

    row: dict
    spans: list[CitationSpan]


# Paragraph selection: which paragraphs of a paper count (CiteWorth §3.1).
@rule("paragraph", "section_not_permissible")
def in_permissible_section(paragraph: dict, rules: RuleSet) -> bool:
    return rules.permissible_section(paragraph["section"])


@rule("paragraph", "no_citation_spans")
def has_citation_spans(paragraph: dict, rules: RuleSet) -> bool:
    return bool(paragraph["cite_spans"])


# Paper rules: on the first selected paragraph (where the published scan stops), then on all of them.
@rule("paper", "first_citation_not_numeric_or_year")
def first_citation_numeric_or_year(paragraph: dict, rules: RuleSet) -> bool:
    if rules._groups_first_citation:
        return rules.citation_format(first_citation_group(paragraph["text"], paragraph["cite_spans"]))
    return rules.citation_format(paragraph["cite_spans"][0]["text"])


@rule("paper", "no_cited_permissible_paragraph")
def has_cited_permissible_paragraph(selected: list[dict], rules: RuleSet) -> bool:
    return bool(selected)


@rule("paper", "five_or_fewer_citation_spans")
def enough_citation_spans(selected: list[dict], rules: RuleSet) -> bool:
    return sum(len(paragraph["cite_spans"]) for paragraph in selected) > rules.few_citation_spans


# Paragraph rules decided before splitting (splitting is the expensive step).
@rule("paragraph", "invalid_citation_offsets")
def valid_citation_offsets(paragraph: CitedParagraph, rules: RuleSet) -> bool:
    return not paragraph.row.get("invalid_span_count")


@rule("paragraph", "citation_not_bracketed")
def no_visible_unbracketed_citation(paragraph: CitedParagraph, rules: RuleSet) -> bool:
    """Such a citation makes its sentence context-only whatever the boundaries, so the paragraph is dropped."""
    return not any(visibly_not_bracketed(span, paragraph.row["text"]) for span in paragraph.spans)


@rule("paragraph", "fewer_than_3_sentences")
def enough_sentences(sentences: list[tuple[int, int]], rules: RuleSet) -> bool:
    return len(sentences) >= rules.min_sentences


# Sentence rules on the sentence and its citation spans.
@rule("sentence", "citation_crosses_sentence_boundary")
def citations_within_sentence(sentence: Sentence, rules: RuleSet) -> bool:
    return not sentence.crosses_citation


@rule("sentence", "span_text_mismatch")
def span_texts_in_sentence(sentence: Sentence, rules: RuleSet) -> bool:
    return all(span.text in sentence.text for span in sentence.citations)


@rule("sentence", "citation_not_bracketed", "citation_not_at_sentence_end")
def citations_bracketed_at_end(sentence: Sentence, rules: RuleSet) -> str | None:
    """The first citation that is not only brackets or is followed by text makes the sentence context-only."""
    for span in sentence.citations:
        if not brackets_only(span.text.strip()):
            return "citation_not_bracketed"
        if TEXT_AFTER_CITATION.search(sentence.text[span.end - sentence.start :]) is not None:
            return "citation_not_at_sentence_end"
    return None


# Sentence rules on the text: a cited sentence's with its citations removed, a plain sentence's as it is.
@rule("sentence", "sentence_too_short")
def long_enough(text: str, rules: RuleSet) -> bool:
    return len(text) > rules.short_sentence_chars


@rule("sentence", "sentence_not_capitalized")
def capitalized(text: str, rules: RuleSet) -> bool:
    return "A" <= text[0] <= "Z"


@rule("sentence", "sentence_bad_ending")
def ends_with_final_mark(text: str, rules: RuleSet) -> bool:
    return text[-1] in ".?!"


@rule("sentence", "leftover_citation_marker")
def no_leftover_citation_marker(text: str, rules: RuleSet) -> bool:
    return not rules.leftover_citation(text)


@rule("sentence", "missed_citation")
def no_missed_citation(text: str, rules: RuleSet) -> bool:
    return not rules.leftover_citation(text)


@rule("sentence", "hanging_citation")
def no_hanging_citation(text: str, rules: RuleSet) -> bool:
    return HANGING_CITATION.search(text.lower()) is None


@rule("sentence", "dangling_reference_phrase")
def no_dangling_reference_phrase(text: str, rules: RuleSet) -> bool:
    """Run after the hanging rule, in the sets with the ``dangling_reference_phrase`` improvement only."""
    return DANGLING_REFERENCE.search(text.lower()) is None
