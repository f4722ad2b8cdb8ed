"""CiteWorth rule sets: which papers, paragraphs and sentences become cite-worthiness data (CiteWorth §3).

Each rule is a small named unit (:class:`Rule`) that judges one thing and gives None or a registered
reason (:mod:`~citeworth_assets.lib.citeworth.reasons`); a rule set holds ordered tuples of units and
its thresholds, and the cleaning pipeline evaluates each tuple in order, the first failing unit giving
the reason. Keeping the published order matters: the recorded reason of an item failing several
rules is the first one.

``citeworth_2021`` reproduces the decisions of the published construction code (which differ in
places from the paper's prose): the Appendix A section titles compared with ``section.lower()``,
the Appendix B regular expressions exactly as written (``[,-;]`` is a character *range*, ``et( )?al``
has no word boundary), citation spans merged by token distance, sentences walked against the merged
spans, citation text removed and hanging punctuation deleted before the format checks.

``citeworth_improved_v2`` is the same procedure with every named :class:`Improvement` switched on
(``citeworth_improved_v1``: the first five, kept so that its outputs stay reproducible);
``citeworth_improved`` names the latest version. Rule-set names key lake partitions and export
folders, so a changed improved set gets a new version and never overwrites an older one's outputs.
Each improvement can also be switched on alone (``citeworth_2021+et_al_word_boundary``) to measure it.
"""

from __future__ import annotations

import re
import string
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from citeworth_assets.lib.citeworth.citations import (
    IMPROVED_SEPARATORS,
    RANGE_SEPARATORS,
    CitationSpan,
    Sentence,
    brackets_only,
    contains_numeric_citation,
    delete_hanging_punctuation,
    first_citation_group,
    remove_citations,
    visibly_not_bracketed,
)
from citeworth_assets.lib.citeworth.quotes import orient_quotes
from citeworth_assets.lib.citeworth.reasons import LEVELS, REASONS
from citeworth_assets.lib.sections import normalize_section_title
from citeworth_assets.lib.settings import SettingError

PERMISSIBLE_SECTION_TITLES = frozenset(
    {
        "introduction",
        "abstract",
        "method",
        "methods",
        "results",
        "discussion",
        "discussions",
        "conclusion",
        "conclusions",
        "results and discussion",
        "related work",
        "experimental results",
        "literature review",
        "experiments",
        "background",
        "methodology",
        "conclusions and future work",
        "related works",
        "limitations",
        "procedure",
        "material and methods",
        "discussion and conclusion",
        "implementation",
        "evaluation",
        "performance evaluation",
        "experiments and results",
        "overview",
        "experimental design",
        "discussion and conclusions",
        "results and discussions",
        "motivation",
        "proposed method",
        "analysis",
        "future work",
        "results and analysis",
        "implementation details",
    }
)  # (Appendix A)

CHECK_WORTHY = "check-worthy"
NON_CHECK_WORTHY = "non-check-worthy"
CONTEXT_ONLY = "context-only"

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

# Improvements.
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


# --- Rule units ---------------------------------------------------------------------------------------------
class UnregisteredReason(ValueError):
    """A rule declares or gives a reason that is not in the registry."""


@dataclass(frozen=True)
class Rule:
    """A named rule: ``rule(subject, rules)`` gives None when the subject passes, else the reason.

    With one reason, ``check`` is a predicate saying what must hold; with several, it gives one of them
    or None. Reasons must be registered, so every drop in the lake has a documented meaning.
    """

    name: str
    level: str
    reasons: tuple[str, ...]
    check: Callable[[Any, RuleSet], Any] = field(repr=False)

    def __post_init__(self):
        object.__setattr__(self, "_single", self.reasons[0] if len(self.reasons) == 1 else None)
        if self.level not in LEVELS:
            raise ValueError(f"rule {self.name}: level {self.level!r} is not one of {LEVELS}")
        unregistered = [reason for reason in self.reasons if reason not in REASONS]
        if not self.reasons or unregistered:
            raise UnregisteredReason(
                f"rule {self.name}: reasons {unregistered or '(none)'} are not registered in REASONS"
            )

    def __call__(self, subject, rules: RuleSet) -> str | None:
        verdict = self.check(subject, rules)
        if self._single:
            return None if verdict else self._single
        if verdict is not None and verdict not in self.reasons:
            raise UnregisteredReason(f"rule {self.name} gave {verdict!r}, not one of its reasons {self.reasons}")
        return verdict


def rule(level: str, *reasons: str) -> Callable[[Callable], Rule]:
    """Declare a function as a rule unit named after it."""
    return lambda check: Rule(check.__name__, level, reasons, check)


def first_failure(units: tuple[Rule, ...], subject, rules: RuleSet) -> str | None:
    """The reason of the first unit the subject fails, in the rule set's order."""
    for unit in units:
        reason = unit(subject, rules)
        if reason:
            return reason
    return None


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


# --- Rule sets ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class RuleSet:
    """Thresholds (published values as defaults), switched-on improvements and the ordered rule units.

    The pipeline (:func:`~citeworth_assets.lib.citeworth.cleaning.clean_papers`) applies, per paper:
    ``paragraph_selection`` to each paragraph, ``first_paragraph_rules`` to the first selected one,
    ``paper_rules`` to the selected ones; per selected paragraph ``paragraph_rules`` before splitting and
    ``split_paragraph_rules`` to its sentences; per sentence ``sentence_rules``, then on its text
    ``cited_sentence_rules`` (citations removed) or ``plain_sentence_rules``; ``context_only_rules`` mark
    a cited sentence context-only, which drops its paragraph once the walk ends.
    """

    name: str
    improvements: frozenset[Improvement] = frozenset()
    short_sentence_chars: int = 20  # a sentence of at most this many characters is too short
    few_citation_spans: int = 5  # a paper whose selected paragraphs hold at most this many spans is dropped
    merge_below_tokens: int = 2  # spans fewer than this many tokens apart are merged
    min_sentences: int = 3  # a paragraph needs at least this many sentences
    hanging_punctuation_longer_than: int = 20  # hanging punctuation is deleted only from longer sentences
    paragraph_selection: tuple[Rule, ...] = (in_permissible_section, has_citation_spans)
    first_paragraph_rules: tuple[Rule, ...] = (first_citation_numeric_or_year,)
    paper_rules: tuple[Rule, ...] = (has_cited_permissible_paragraph, enough_citation_spans)
    paragraph_rules: tuple[Rule, ...] = (valid_citation_offsets, no_visible_unbracketed_citation)
    split_paragraph_rules: tuple[Rule, ...] = (enough_sentences,)
    sentence_rules: tuple[Rule, ...] = (citations_within_sentence, span_texts_in_sentence)
    cited_sentence_rules: tuple[Rule, ...] = (
        long_enough,
        capitalized,
        ends_with_final_mark,
        no_leftover_citation_marker,
        no_hanging_citation,
    )
    plain_sentence_rules: tuple[Rule, ...] = (
        no_missed_citation,
        capitalized,
        ends_with_final_mark,
        long_enough,
        no_hanging_citation,
    )
    context_only_rules: tuple[Rule, ...] = (citations_bracketed_at_end,)
    # What the improvements select, looked up once: the rules run for every sentence.
    _normalized_titles: bool = field(init=False, repr=False, compare=False)
    _separators: frozenset[str] = field(init=False, repr=False, compare=False)
    _year_or_et_al: re.Pattern = field(init=False, repr=False, compare=False)
    _joins_after_abbreviations: bool = field(init=False, repr=False, compare=False)
    _trims_sentences: bool = field(init=False, repr=False, compare=False)
    _groups_first_citation: bool = field(init=False, repr=False, compare=False)
    _tidies_removal: bool = field(init=False, repr=False, compare=False)
    _quote_aware: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        improvements = frozenset(Improvement.named(name) for name in self.improvements)
        chosen = {
            "improvements": improvements,
            "_normalized_titles": Improvement.NORMALIZED_SECTION_TITLES in improvements,
            "_separators": IMPROVED_SEPARATORS
            if Improvement.LITERAL_NUMERIC_SEPARATORS in improvements
            else RANGE_SEPARATORS,
            "_year_or_et_al": YEAR_OR_ET_AL_WORD if Improvement.ET_AL_WORD_BOUNDARY in improvements else YEAR_OR_ET_AL,
            "_joins_after_abbreviations": Improvement.ABBREVIATION_AWARE_SPLITTING in improvements,
            "_trims_sentences": Improvement.TRIMMED_SENTENCES in improvements,
            "_groups_first_citation": Improvement.GROUPED_FIRST_CITATION in improvements,
            "_tidies_removal": Improvement.EMPTIED_PARENTHETICAL in improvements,
            "_quote_aware": Improvement.QUOTE_AWARE_SPLITTING in improvements,
        }
        if Improvement.DANGLING_REFERENCE_PHRASE in improvements:  # a unit of its own, after the hanging rule
            for name in ("cited_sentence_rules", "plain_sentence_rules"):
                units = getattr(self, name)
                if no_dangling_reference_phrase not in units:
                    chosen[name] = (*units, no_dangling_reference_phrase)
        for name, value in chosen.items():
            object.__setattr__(self, name, value)

    def __repr__(self) -> str:
        return f"RuleSet({self.name!r})"

    def units(self) -> tuple[Rule, ...]:
        """Every rule unit of the set, in evaluation order (each once)."""
        groups = (
            self.paragraph_selection,
            self.first_paragraph_rules,
            self.paper_rules,
            self.paragraph_rules,
            self.split_paragraph_rules,
            self.sentence_rules,
            self.cited_sentence_rules,
            self.plain_sentence_rules,
            self.context_only_rules,
        )
        return tuple(dict.fromkeys(unit for group in groups for unit in group))

    def with_improvements(self, *names: str) -> RuleSet:
        added = frozenset(Improvement.named(name) for name in names)
        return replace(self, name=f"{self.name}+{'+'.join(sorted(added))}", improvements=self.improvements | added)

    def uses(self, improvement: Improvement | str) -> bool:
        return Improvement.named(improvement) in self.improvements

    def permissible_section(self, section: str) -> bool:
        if self._normalized_titles:
            section = normalize_section_title(section)
        return section.lower() in PERMISSIBLE_SECTION_TITLES

    def numeric_citation(self, text: str) -> bool:
        return contains_numeric_citation(text, self._separators)

    def citation_format(self, text: str) -> bool:
        """The first citation of a paper is bracketed-numeric or parenthetical-year (published
        ``valid_citation_format``)."""
        return self.numeric_citation(text) or YEAR_CITATION.search(text) is not None

    def cleaned_sentence(self, text: str, sentence: Sentence) -> str:
        """A cited sentence's text without its citations and the punctuation they leave hanging."""
        removed = remove_citations(text, sentence.start, sentence.end, sentence.citations, self._tidies_removal)
        return delete_hanging_punctuation(removed, self.hanging_punctuation_longer_than)

    def leftover_citation(self, text: str) -> bool:
        """A citation S2ORC did not mark, or a marker left after removal (published ``ignore_sentence``)."""
        return self.numeric_citation(text) or self._year_or_et_al.search(text) is not None


CITEWORTH_2021 = RuleSet("citeworth_2021")
CITEWORTH_IMPROVED_V1 = RuleSet("citeworth_improved_v1", V1_IMPROVEMENTS)
CITEWORTH_IMPROVED_V2 = RuleSet("citeworth_improved_v2", frozenset(Improvement))
IMPROVED_VERSIONS = (CITEWORTH_IMPROVED_V1, CITEWORTH_IMPROVED_V2)
RULE_SETS = {rules.name: rules for rules in (CITEWORTH_2021, *IMPROVED_VERSIONS)}
LATEST = {"citeworth_improved": CITEWORTH_IMPROVED_V2}  # an unversioned name selects the latest version
CITEWORTH_IMPROVED = LATEST["citeworth_improved"]


def rule_set(name: str) -> RuleSet:
    """A rule set by name: a base set, optionally with ``+improvement`` suffixes
    (``citeworth_2021+et_al_word_boundary``).

    The result's ``name`` is versioned (``citeworth_improved`` gives ``citeworth_improved_v2``): use it,
    not the setting, wherever outputs are keyed.
    """
    base, *extra = name.split("+")
    rules = LATEST.get(base) or RULE_SETS.get(base)
    known_improvements = [member.value for member in Improvement]
    if rules is None or any(improvement not in known_improvements for improvement in extra):
        latest = [f"{alias} (latest: {rules.name})" for alias, rules in LATEST.items()]
        raise SettingError(
            f"unknown rule set {name!r} (CITEWORTH_RULES / --rules): use one of {[*RULE_SETS, *latest]}, "
            f"optionally with +<improvement> suffixes from {known_improvements}"
        )
    return rules.with_improvements(*extra) if extra else rules


def adjust_sentences(
    text: str, sentences: list[tuple[int, int]], rules: RuleSet, splitter=None
) -> list[tuple[int, int]]:
    """Sentence boundaries after the splitting improvements of a rule set (unchanged for the faithful set).

    ``splitter`` (the run's :class:`~citeworth_assets.lib.sentences.SentenceSplitter`) splits again a paragraph
    whose curly quotes stand the wrong way round, with them turned (``quote_aware_splitting``).
    """
    if rules._quote_aware and splitter is not None and (oriented := orient_quotes(text)) is not text:
        sentences = splitter.split(oriented)
    if rules._joins_after_abbreviations and len(sentences) > 1:
        joined = [sentences[0]]
        for start, end in sentences[1:]:
            if SPLIT_ABBREVIATIONS.search(text[joined[-1][0] : joined[-1][1]].rstrip()):
                joined[-1] = (joined[-1][0], end)
            else:
                joined.append((start, end))
        sentences = joined
    if rules._trims_sentences:
        trimmed = []
        for start, end in sentences:
            piece = text[start:end]
            lead = len(piece) - len(piece.lstrip())
            trail = len(piece) - len(piece.rstrip())
            if end - trail > start + lead:
                trimmed.append((start + lead, end - trail))
        sentences = trimmed
    return sentences
