"""Every reason a CiteWorth rule can give for dropping a paper, paragraph or sentence, listed once.

Rejection rows carry only the reason's name; this registry says what it means, so that an analyst
reading ``citeworth.rejections`` can look a reason up (the warehouse publishes it, with every domain's, as
``platform.drop_reasons`` and as the view ``citeworth.drop_reasons``). A rule cannot be declared with a reason
missing here (:func:`~citeworth_assets.lib.citeworth.rule_units.rule`), so the list cannot fall behind the rules.
Names are stable: lake partitions of earlier runs hold them.
"""

from __future__ import annotations

from citeworth_assets.lib.reasons import ReasonRegistry

LEVELS = ("paper", "paragraph", "sentence")


REASONS = ReasonRegistry("citeworth", LEVELS)
# Papers (CiteWorth §3.1).
REASONS.describe(
    "paper",
    {
        "no_cited_permissible_paragraph": (
            "no body paragraph in a permissible section (Appendix A) holds a citation span"
        ),
        "first_citation_not_numeric_or_year": (
            "the first citation of the first cited permissible paragraph is neither [n] nor (year) style"
        ),
        "five_or_fewer_citation_spans": (
            "the cited permissible paragraphs hold too few citation spans (published: 5 or fewer)"
        ),
        "internal_error": (
            "cleaning the paper raised an unexpected exception (a bug, not a rule): the rejection's detail names "
            "it and where it was raised; the paper's other output is lost, the other papers' is not"
        ),
    },
)
# Paragraphs.
REASONS.describe(
    "paragraph",
    {
        "section_not_permissible": "the section title is not one of Appendix A's permissible titles",
        "no_citation_spans": "the paragraph has no citation span",
        "invalid_citation_offsets": "a citation or reference span of the parse has offsets outside the paragraph text",
        "fewer_than_3_sentences": "the paragraph splits into too few sentences (published: fewer than 3)",
    },
)
# Sentences: the first failing sentence drops its paragraph.
REASONS.describe(
    "sentence",
    {
        "citation_crosses_sentence_boundary": "a merged citation span starts in one sentence and ends in another",
        "span_text_mismatch": "a citation span's text is not found in its sentence (bad parse offsets)",
        "citation_not_bracketed": (
            "a citation is not only brackets (e.g. 'Smith et al. (2019)'), so its sentence is context-only; a "
            "paragraph with such a visible citation is dropped before splitting"
        ),
        "citation_not_at_sentence_end": "text follows a citation inside its sentence, so the sentence is context-only",
        "sentence_too_short": "the sentence (citations removed) is too short (published: 20 characters or fewer)",
        "sentence_not_capitalized": "the sentence does not start with an upper-case letter A-Z",
        "sentence_bad_ending": "the sentence does not end with '.', '?' or '!'",
        "leftover_citation_marker": (
            "a cited sentence still holds a citation marker ([n], (year), et al) after its spans are removed"
        ),
        "hanging_citation": (
            "the sentence ends with a word that announces a citation ('by', 'see', 'e.g.') before its final mark"
        ),
        "dangling_reference_phrase": (
            "the sentence ends with a pointer phrase and modifiers left pointing at nothing ('see in "
            "particular.', 'cf. e.g.'); the hanging_citation family, with the improvement "
            "dangling_reference_phrase"
        ),
        "missed_citation": "a sentence without citation spans holds a citation marker the parser did not mark",
    },
)

# Reasons the cleaning pipeline gives itself, not a rule unit.
PIPELINE_REASONS = frozenset({"internal_error"})
