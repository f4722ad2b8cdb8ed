"""Every reason a CiteWorth rule can give for dropping a paper, paragraph or sentence, listed once.

Rejection rows carry only the reason's name; this registry says what it means, so that an analyst
reading ``citeworth.rejections`` can look a reason up (the integrator publishes it as the warehouse view
``citeworth.drop_reasons``). A rule cannot be declared with a reason missing here
(:func:`~citeworth_assets.lib.citeworth.rules.rule`), so the list cannot fall behind the rules.
Names are stable: lake partitions of earlier runs hold them.
"""

from __future__ import annotations

import pyarrow as pa

from citeworth_assets.lib.reasons import ReasonRegistry

LEVELS = ("paper", "paragraph", "sentence")


REASONS = ReasonRegistry("citeworth", LEVELS)
# Papers (CiteWorth §3.1).
REASONS.add(
    "no_cited_permissible_paragraph",
    "paper",
    "no body paragraph in a permissible section (Appendix A) holds a citation span",
)
REASONS.add(
    "first_citation_not_numeric_or_year",
    "paper",
    "the first citation of the first cited permissible paragraph is neither [n] nor (year) style",
)
REASONS.add(
    "five_or_fewer_citation_spans",
    "paper",
    "the cited permissible paragraphs hold too few citation spans (published: 5 or fewer)",
)
REASONS.add(
    "internal_error",
    "paper",
    "cleaning the paper raised an unexpected exception (a bug, not a rule): the rejection's detail names it and "
    "where it was raised; the paper's other output is lost, the other papers' is not",
)
# Paragraphs.
REASONS.add("section_not_permissible", "paragraph", "the section title is not one of Appendix A's permissible titles")
REASONS.add("no_citation_spans", "paragraph", "the paragraph has no citation span")
REASONS.add(
    "invalid_citation_offsets",
    "paragraph",
    "a citation or reference span of the parse has offsets outside the paragraph text",
)
REASONS.add(
    "fewer_than_3_sentences", "paragraph", "the paragraph splits into too few sentences (published: fewer than 3)"
)
# Sentences: the first failing sentence drops its paragraph.
REASONS.add(
    "citation_crosses_sentence_boundary",
    "sentence",
    "a merged citation span starts in one sentence and ends in another",
)
REASONS.add("span_text_mismatch", "sentence", "a citation span's text is not found in its sentence (bad parse offsets)")
REASONS.add(
    "citation_not_bracketed",
    "sentence",
    "a citation is not only brackets (e.g. 'Smith et al. (2019)'), so its sentence is context-only; a paragraph "
    "with such a visible citation is dropped before splitting",
)
REASONS.add(
    "citation_not_at_sentence_end",
    "sentence",
    "text follows a citation inside its sentence, so the sentence is context-only",
)
REASONS.add(
    "sentence_too_short",
    "sentence",
    "the sentence (citations removed) is too short (published: 20 characters or fewer)",
)
REASONS.add("sentence_not_capitalized", "sentence", "the sentence does not start with an upper-case letter A-Z")
REASONS.add("sentence_bad_ending", "sentence", "the sentence does not end with '.', '?' or '!'")
REASONS.add(
    "leftover_citation_marker",
    "sentence",
    "a cited sentence still holds a citation marker ([n], (year), et al) after its spans are removed",
)
REASONS.add(
    "hanging_citation",
    "sentence",
    "the sentence ends with a word that announces a citation ('by', 'see', 'e.g.') before its final mark",
)
REASONS.add(
    "dangling_reference_phrase",
    "sentence",
    "the sentence ends with a pointer phrase and modifiers left pointing at nothing ('see in particular.', "
    "'cf. e.g.'); the hanging_citation family, with the improvement dangling_reference_phrase",
)
REASONS.add(
    "missed_citation", "sentence", "a sentence without citation spans holds a citation marker the parser did not mark"
)

# Reasons the cleaning pipeline gives itself, not a rule unit.
PIPELINE_REASONS = frozenset({"internal_error"})

REASON_SCHEMA = pa.schema([("reason", pa.string()), ("level", pa.string()), ("description", pa.string())])


def reason_rows() -> list[dict]:
    """The registry as rows of :data:`REASON_SCHEMA`, ordered paper, paragraph, sentence."""
    ordered = sorted(REASONS.items(), key=lambda item: LEVELS.index(item[1].level))
    return [{"reason": name, "level": reason.level, "description": reason.description} for name, reason in ordered]


def reason_table() -> pa.Table:
    return pa.Table.from_pylist(reason_rows(), schema=REASON_SCHEMA)
