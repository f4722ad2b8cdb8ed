"""Named departures from the published CiteWorth rules (CiteWorth §3), each switchable on its own.

A rule set holds a frozenset of :class:`Improvement` members; the rules look up once what each selects
(:class:`~citeworth_assets.lib.citeworth.rules.RuleSet`). ``V1_IMPROVEMENTS`` is the first published
improved set, kept so that ``citeworth_improved_v1`` outputs stay reproducible. The patterns here are the
improved counterparts of the Appendix B ones (:mod:`~citeworth_assets.lib.citeworth.rule_units`).
"""

from __future__ import annotations

import re
from enum import StrEnum

YEAR_OR_ET_AL_WORD = re.compile(r"\(?[12][0-9]{3}[a-z]?\s*\)|\bet( )?al\b(\.?)")
SPLIT_ABBREVIATIONS = re.compile(
    r"(?:^|[\s(\[])(?:refs?|figs?|eqs?|cf|e\.g|i\.e|vs|approx|secs?|tabs?|chaps?|nos?|vols?|pp|resp|al)\.$",
    re.IGNORECASE,
)
# A pointer phrase whose citation was removed from the end of the sentence: the pointing word, up to three
# hedging modifiers (not content words: "shown in the literature." is a sentence), then the final mark.
REFERENCE_MODIFIER = (
    r"in particular|particularly|especially|notably|also|e\.?g\.?|i\.?e\.?|for example|for instance|among others"
    r"|for (?:more |further )?details?|for (?:a |recent )*reviews?|and references therein|(?:the )?references therein"
    r"|therein"
)
DANGLING_REFERENCE = re.compile(
    r"(?:^|[\s(])(?:see|cf\.?|e\.?g\.?|in|by|following|given in|refer to)"
    rf"(?:[\s,]+(?:{REFERENCE_MODIFIER})){{0,3}}[\s,;:]*[)\]]?\s*[.?!]\s*$"
)


class Improvement(StrEnum):
    """A named departure from the published rules; an unknown name fails at once (:meth:`named`)."""

    LITERAL_NUMERIC_SEPARATORS = "literal_numeric_separators"
    ET_AL_WORD_BOUNDARY = "et_al_word_boundary"
    NORMALIZED_SECTION_TITLES = "normalized_section_titles"
    TRIMMED_SENTENCES = "trimmed_sentences"
    ABBREVIATION_AWARE_SPLITTING = "abbreviation_aware_splitting"
    GROUPED_FIRST_CITATION = "grouped_first_citation"
    QUOTE_AWARE_SPLITTING = "quote_aware_splitting"
    EMPTIED_PARENTHETICAL = "emptied_parenthetical"
    DANGLING_REFERENCE_PHRASE = "dangling_reference_phrase"

    @property
    def description(self) -> str:
        return IMPROVEMENT_DESCRIPTIONS[self]

    @classmethod
    def named(cls, name: str) -> Improvement:
        try:
            return cls(name)
        except ValueError:
            raise ValueError(f"unknown improvement {name!r}: use one of {[member.value for member in cls]}") from None


IMPROVEMENT_DESCRIPTIONS = {
    Improvement.LITERAL_NUMERIC_SEPARATORS: "numeric citations separate numbers only by , ; - and en dash, so [1.5] "
    "and [2/3] are not citations and [3–6] is one",
    Improvement.ET_AL_WORD_BOUNDARY: "'et al' is matched as words, so 'metal' and 'fetal' are not leftover citations",
    Improvement.NORMALIZED_SECTION_TITLES: "section titles are compared without numbering, case and trailing "
    "punctuation ('2 Related Work', 'II. INTRODUCTION', 'Methods:')",
    Improvement.TRIMMED_SENTENCES: "whitespace around a sentence is not part of it, so it cannot fail the "
    "end-character check",
    Improvement.ABBREVIATION_AWARE_SPLITTING: "no sentence break after Ref., Fig., Eq., cf., e.g., i.e. and similar",
    Improvement.GROUPED_FIRST_CITATION: "the first-citation format check reads the paper's first citation group, the "
    "spans separated only by spaces, ',' or ';' joined (GROBID splits [22, 23] into '[22,' and '23]')",
    Improvement.QUOTE_AWARE_SPLITTING: "curly double quotes standing the wrong way round (”Are you sure“) are turned "
    "before splitting, so the text between two quotations is not taken for one quotation and glued into one sentence",
    Improvement.EMPTIED_PARENTHETICAL: "removing a citation also removes the separator and the brackets it leaves "
    "empty: 'Telescope (DKIST, [49, 56]).' gives 'Telescope (DKIST).', not 'Telescope (DKIST,).'; a parenthetical it "
    "leaves holding only pointer words goes whole: 'training, (e.g. [4]).' gives 'training.', "
    "not 'training, (e.g.).'",
    Improvement.DANGLING_REFERENCE_PHRASE: "a sentence ending in a pointer phrase with modifiers "
    "('see in particular.', 'cf. e.g.') drops its paragraph, as one ending in the pointing word does",
}
V1_IMPROVEMENTS = frozenset(
    {
        Improvement.LITERAL_NUMERIC_SEPARATORS,
        Improvement.ET_AL_WORD_BOUNDARY,
        Improvement.NORMALIZED_SECTION_TITLES,
        Improvement.TRIMMED_SENTENCES,
        Improvement.ABBREVIATION_AWARE_SPLITTING,
    }
)  # (citeworth_improved_v1)
