"""CiteWorth rule sets: which papers, paragraphs and sentences become cite-worthiness data (CiteWorth §3).

Each rule is a small named unit (:mod:`~citeworth_assets.lib.citeworth.rule_units`) that judges one thing
and gives None or a registered reason; a rule set holds ordered tuples of units and its thresholds, and the
cleaning pipeline evaluates each tuple in order, the first failing unit giving the reason. Keeping the
published order matters: the recorded reason of an item failing several rules is the first one.

``citeworth_2021`` reproduces the decisions of the published construction code (which differ in
places from the paper's prose): the Appendix A section titles compared with ``section.lower()``,
the Appendix B regular expressions exactly as written (``[,-;]`` is a character *range*, ``et( )?al``
has no word boundary), citation spans merged by token distance, sentences walked against the merged
spans, citation text removed and hanging punctuation deleted before the format checks.

``citeworth_improved_v2`` is the same procedure with every named improvement
(:mod:`~citeworth_assets.lib.citeworth.improvements`) switched on (``citeworth_improved_v1``: the first five,
kept so that its outputs stay reproducible); ``citeworth_improved`` names the latest version. Rule-set names
key lake partitions and export folders, so a changed improved set gets a new version and never overwrites an
older one's outputs.
Each improvement can also be switched on alone (``citeworth_2021+et_al_word_boundary``) to measure it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from citeworth_assets.lib.citeworth.citations import (
    IMPROVED_SEPARATORS,
    RANGE_SEPARATORS,
    Sentence,
    contains_numeric_citation,
    delete_hanging_punctuation,
    remove_citations,
)
from citeworth_assets.lib.citeworth.improvements import (
    SPLIT_ABBREVIATIONS,
    V1_IMPROVEMENTS,
    YEAR_OR_ET_AL_WORD,
    Improvement,
)
from citeworth_assets.lib.citeworth.quotes import orient_quotes
from citeworth_assets.lib.citeworth.rule_units import (
    YEAR_CITATION,
    YEAR_OR_ET_AL,
    Rule,
    capitalized,
    citations_bracketed_at_end,
    citations_within_sentence,
    ends_with_final_mark,
    enough_citation_spans,
    enough_sentences,
    first_citation_numeric_or_year,
    has_citation_spans,
    has_cited_permissible_paragraph,
    in_permissible_section,
    long_enough,
    no_dangling_reference_phrase,
    no_hanging_citation,
    no_leftover_citation_marker,
    no_missed_citation,
    no_visible_unbracketed_citation,
    span_texts_in_sentence,
    valid_citation_offsets,
)
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
