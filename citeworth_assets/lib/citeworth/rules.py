"""CiteWorth rule sets: which paragraphs and sentences become cite-worthiness data (seeds/001 §3).

``citeworth_2021`` reproduces the decisions of the published construction code (which differ in
places from the paper's prose): the Appendix A section titles compared with ``section.lower()``,
the Appendix B regular expressions exactly as written (``[,-;]`` is a character *range*, ``et( )?al``
has no word boundary), citation spans merged by token distance, sentences walked against the merged
spans, citation text removed and hanging punctuation deleted before the format checks.

``citeworth_improved`` is the same procedure with named improvements switched on. Each improvement
can also be switched on alone (``RuleSet.with_improvements``) to measure its effect.

The published code's numeric-citation expression ``\\[([0-9]+\\s*[,-;]*\\s*)*[0-9]+\\s*\\]`` backtracks
exponentially on long runs of digits and spaces with no closing bracket. It is evaluated here by an
equivalent finite automaton (tested against the expression), which accepts exactly the same texts in
linear time.
"""

from __future__ import annotations

import re
import string
import warnings
from bisect import bisect_right
from dataclasses import dataclass, field, replace

from citeworth_assets.lib.sections import normalize_section_title

PERMISSIBLE_SECTION_TITLES = frozenset(
    {
        "introduction", "abstract", "method", "methods", "results", "discussion", "discussions", "conclusion",
        "conclusions", "results and discussion", "related work", "experimental results", "literature review",
        "experiments", "background", "methodology", "conclusions and future work", "related works", "limitations",
        "procedure", "material and methods", "discussion and conclusion", "implementation", "evaluation",
        "performance evaluation", "experiments and results", "overview", "experimental design",
        "discussion and conclusions", "results and discussions", "motivation", "proposed method", "analysis",
        "future work", "results and analysis", "implementation details",
    }
)  # fmt: skip  (Appendix A)

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
    STARTS_WITH_PUNCTUATION = re.compile("^\\s*[" + string.punctuation + "]")
HANGING_PUNCTUATION = " @&:;/-,\n\t"

# Improvements.
YEAR_OR_ET_AL_WORD = re.compile(r"\(?[12][0-9]{3}[a-z]?\s*\)|\bet( )?al\b(\.?)")
SPLIT_ABBREVIATIONS = re.compile(
    r"(?:^|[\s(\[])(?:refs?|figs?|eqs?|cf|e\.g|i\.e|vs|approx|secs?|tabs?|chaps?|nos?|vols?|pp|resp|al)\.$",
    re.IGNORECASE,
)

IMPROVEMENTS = {
    "literal_numeric_separators": "numeric citations separate numbers only by , ; - and en dash, so [1.5] and [2/3] "
    "are not citations and [3–6] is one",
    "et_al_word_boundary": "'et al' is matched as words, so 'metal' and 'fetal' are not leftover citations",
    "normalized_section_titles": "section titles are compared without numbering, case and trailing punctuation "
    "('2 Related Work', 'II. INTRODUCTION', 'Methods:')",
    "trimmed_sentences": "whitespace around a sentence is not part of it, so it cannot fail the end-character check",
    "abbreviation_aware_splitting": "no sentence break after Ref., Fig., Eq., cf., e.g., i.e. and similar",
}


@dataclass(frozen=True)
class RuleSet:
    name: str
    improvements: frozenset[str] = frozenset()

    def __post_init__(self):
        unknown = set(self.improvements) - IMPROVEMENTS.keys()
        if unknown:
            raise ValueError(f"unknown improvements {sorted(unknown)}; known: {sorted(IMPROVEMENTS)}")

    def with_improvements(self, *names: str) -> "RuleSet":
        improvements = self.improvements | set(names)
        return replace(self, name=f"{self.name}+{'+'.join(sorted(names))}", improvements=frozenset(improvements))

    def uses(self, improvement: str) -> bool:
        return improvement in self.improvements

    def permissible_section(self, section: str) -> bool:
        if self.uses("normalized_section_titles"):
            section = normalize_section_title(section)
        return section.lower() in PERMISSIBLE_SECTION_TITLES

    def numeric_citation(self, text: str) -> bool:
        separators = IMPROVED_SEPARATORS if self.uses("literal_numeric_separators") else RANGE_SEPARATORS
        return contains_numeric_citation(text, separators)

    def citation_format(self, text: str) -> bool:
        """The first citation of a paper is bracketed-numeric or parenthetical-year (published ``valid_citation_format``)."""
        return self.numeric_citation(text) or YEAR_CITATION.search(text) is not None

    def leftover_citation(self, text: str) -> bool:
        """A citation S2ORC did not mark, or a marker left after removal (published ``ignore_sentence``)."""
        year_or_et_al = YEAR_OR_ET_AL_WORD if self.uses("et_al_word_boundary") else YEAR_OR_ET_AL
        return self.numeric_citation(text) or year_or_et_al.search(text) is not None


CITEWORTH_2021 = RuleSet("citeworth_2021")
CITEWORTH_IMPROVED = RuleSet("citeworth_improved", frozenset(IMPROVEMENTS))
RULE_SETS = {rules.name: rules for rules in (CITEWORTH_2021, CITEWORTH_IMPROVED)}


def rule_set(name: str) -> RuleSet:
    """A rule set by name: a base set, optionally with ``+improvement`` suffixes (``citeworth_2021+et_al_word_boundary``)."""
    base, *extra = name.split("+")
    if base not in RULE_SETS:
        raise ValueError(f"unknown rule set {name!r} (CITEWORTH_RULES / --rules): use one of {sorted(RULE_SETS)}")
    return RULE_SETS[base].with_improvements(*extra) if extra else RULE_SETS[base]


# --- Bracketed numeric citations ---------------------------------------------------------------------------------
# The characters the published class [,-;] admits besides digits: the range from ',' to ';'.
RANGE_SEPARATORS = frozenset(",-./:;")
IMPROVED_SEPARATORS = frozenset(",;-\u2013")


def contains_numeric_citation(text: str, separators: frozenset[str]) -> bool:
    """Whether ``\\[([0-9]+\\s*[S]*\\s*)*[0-9]+\\s*\\]`` matches somewhere in ``text`` (S: the separators).

    The inside of the brackets must start with a digit and end with a digit (then optional spaces);
    between digits, separators and spaces mix freely except that a run of spaces may not stand
    between two separators. States: 1 after a digit, 2 after a separator, 3 spaces after a digit,
    4 spaces after a separator.
    """
    start = text.find("[")
    while start >= 0:
        state = 0
        for char in text[start + 1 :]:
            if "0" <= char <= "9":
                state = 1
            elif char == "]" and state in (1, 3):
                return True
            elif char in separators and state in (1, 2, 3):
                state = 2
            elif char.isspace() and state:
                state = 4 if state in (2, 4) else 3
            else:
                break
        start = text.find("[", start + 1)
    return False


# --- Paragraph and sentence rules -------------------------------------------------------------------------------
@dataclass
class CitationSpan:
    """A merged citation span: adjacent S2ORC spans joined (published ``combine_span_indices``)."""

    start: int
    end: int
    text: str
    ref_ids: list
    linked_paper_ids: list


@dataclass
class Sample:
    text: str
    label: str
    original_text: str
    ref_ids: list | None = None
    citation_text: list | None = None


@dataclass
class ParagraphVerdict:
    samples: list[Sample] = field(default_factory=list)
    reason: str | None = None  # None: accepted
    sentence_index: int | None = None  # the sentence that decided a drop
    sentence_text: str | None = None


def token_index(token_starts: list[int], char: int) -> int:
    """The token a character belongs to; whitespace belongs to the token before it."""
    return max(bisect_right(token_starts, char) - 1, 0)


def merge_citation_spans(text: str, cite_spans: list[dict], token_starts: list[int]) -> list[CitationSpan]:
    """Join each span to the previous one when fewer than 2 tokens lie between them."""
    merged: list[CitationSpan] = []
    for span in cite_spans:
        if merged and token_index(token_starts, span["start"]) - token_index(token_starts, merged[-1].end) < 2:
            last = merged[-1]
            last.end = span["end"]
            last.text = text[last.start : span["end"]]
            last.ref_ids.append(span.get("ref_id"))
            last.linked_paper_ids.append(span.get("linked_paper_id"))
        else:
            merged.append(
                CitationSpan(span["start"], span["end"], span["text"], [span.get("ref_id")], [span.get("linked_paper_id")])
            )
    return merged


def brackets_only(text: str) -> bool:
    return (text[0] == "[" and text[-1] == "]") or (text[0] == "(" and text[-1] == ")")


def visibly_not_bracketed(span: CitationSpan, paragraph: str) -> bool:
    """A span with visible text that is not bracketed: its sentence is context-only, whatever the boundaries."""
    stripped = span.text.strip()
    return bool(stripped) and bool(paragraph[span.start : span.end].strip()) and not brackets_only(stripped)


def remove_citations(text: str, start: int, end: int, spans: list[CitationSpan]) -> str:
    """The sentence ``text[start:end]`` without its citation spans (published ``remove_citations``)."""
    spans = sorted(spans, key=lambda span: span.start)
    result = text[start : spans[0].start]
    for previous, span in zip(spans, spans[1:]):
        between = text[previous.end : span.start]
        if STARTS_WITH_PUNCTUATION.search(between):
            result = result.rstrip()
        result += between.lstrip()
    after = text[spans[-1].end : end]
    if STARTS_WITH_PUNCTUATION.search(after):
        result = result.rstrip()
    return result + after.lstrip()


def delete_hanging_punctuation(sentence: str) -> str:
    """Delete the character before the last while it is hanging punctuation and the sentence is long enough."""
    while len(sentence) > 20 and sentence[-2] in HANGING_PUNCTUATION:
        sentence = sentence[:-2] + sentence[-1]
    return sentence


def _starts_and_ends_well(sentence: str) -> str | None:
    if not ("A" <= sentence[0] <= "Z"):
        return "sentence_not_capitalized"
    if sentence[-1] not in ".?!":
        return "sentence_bad_ending"
    return None


def cited_sentence_failure(sentence: str, rules: RuleSet) -> str | None:
    """Why a sentence with its citations removed fails, in the published order of checks."""
    if len(sentence) <= 20:
        return "sentence_too_short"
    return (
        _starts_and_ends_well(sentence)
        or ("leftover_citation_marker" if rules.leftover_citation(sentence) else None)
        or ("hanging_citation" if HANGING_CITATION.search(sentence.lower()) else None)
    )


def plain_sentence_failure(sentence: str, rules: RuleSet) -> str | None:
    """Why a sentence without citation spans fails, in the published order of checks."""
    if rules.leftover_citation(sentence):
        return "missed_citation"
    failure = _starts_and_ends_well(sentence)
    if failure:
        return failure
    if len(sentence) <= 20:
        return "sentence_too_short"
    return "hanging_citation" if HANGING_CITATION.search(sentence.lower()) else None


def walk_sentences(
    text: str, sentences: list[tuple[int, int]], spans: list[CitationSpan], rules: RuleSet
) -> ParagraphVerdict:
    """Label each sentence of a paragraph, or say why the paragraph is dropped (published ``dataset_worker`` loop)."""
    verdict = ParagraphVerdict()
    j = 0
    for index, (start, end) in enumerate(sentences):
        sentence = text[start:end]
        if j < len(spans) and start > spans[j].start:
            return ParagraphVerdict(reason="citation_crosses_sentence_boundary", sentence_index=index, sentence_text=sentence)
        own: list[CitationSpan] = []
        context_only = None  # why the sentence is context-only, if it is
        while j < len(spans) and start <= spans[j].start and spans[j].end <= end:
            span = spans[j]
            own.append(span)
            if context_only is None:
                if not brackets_only(span.text.strip()):
                    context_only = "citation_not_bracketed"
                elif TEXT_AFTER_CITATION.search(text[span.end : end]) is not None:
                    context_only = "citation_not_at_sentence_end"
            j += 1
        if own:
            if not all(span.text in sentence for span in own):
                return ParagraphVerdict(reason="span_text_mismatch", sentence_index=index, sentence_text=sentence)
            cleaned = delete_hanging_punctuation(remove_citations(text, start, end, own))
            failure = cited_sentence_failure(cleaned, rules)
            if failure:
                return ParagraphVerdict(reason=failure, sentence_index=index, sentence_text=cleaned)
            if context_only and verdict.reason is None:
                verdict.reason, verdict.sentence_index, verdict.sentence_text = context_only, index, sentence
            label = CONTEXT_ONLY if context_only else CHECK_WORTHY
            verdict.samples.append(Sample(cleaned, label, sentence, [s.ref_ids for s in own], [s.text for s in own]))
        else:
            failure = plain_sentence_failure(sentence, rules)
            if failure:
                return ParagraphVerdict(reason=failure, sentence_index=index, sentence_text=sentence)
            verdict.samples.append(Sample(sentence, NON_CHECK_WORTHY, sentence))
    if verdict.reason:  # the published code keeps context-only sentences under a third label; the paper drops them
        verdict.samples = []
    return verdict


def adjust_sentences(text: str, sentences: list[tuple[int, int]], rules: RuleSet) -> list[tuple[int, int]]:
    """Sentence boundaries after the splitting improvements of a rule set (unchanged for the faithful set)."""
    if rules.uses("abbreviation_aware_splitting") and len(sentences) > 1:
        joined = [sentences[0]]
        for start, end in sentences[1:]:
            if SPLIT_ABBREVIATIONS.search(text[joined[-1][0] : joined[-1][1]].rstrip()):
                joined[-1] = (joined[-1][0], end)
            else:
                joined.append((start, end))
        sentences = joined
    if rules.uses("trimmed_sentences"):
        trimmed = []
        for start, end in sentences:
            piece = text[start:end]
            lead = len(piece) - len(piece.lstrip())
            trail = len(piece) - len(piece.rstrip())
            if end - trail > start + lead:
                trimmed.append((start + lead, end - trail))
        sentences = trimmed
    return sentences
