"""Comparing CiteWorth rule sets: yield and quality proxies on the same candidate papers.

Yield is counted per 1000 candidate papers (papers, paragraphs, sentences kept). The quality proxies
are independent of every rule set's own checks, so they can catch what a rule set lets through:

* a *citation marker* left in a kept sentence: bracketed numbers (with any separators, including
  decimals a range-based expression would accept), author-year parentheses, a bare year in
  parentheses, ``et al.`` as words, or a hanging reference phrase at the end ("as shown by.", also with
  modifiers: "see in particular.", "by, among others.");
* a *format problem*: not starting with an upper-case letter, not ending with ``.``, ``?`` or ``!``,
  surrounding whitespace, 20 characters or fewer, unbalanced brackets, space before the final mark, or brackets
  a removed citation left empty or closing on a separator ("(DKIST,)", "()").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from citeworth_assets.lib.citeworth.cleaning import INTERNAL_ERROR, clean_papers
from citeworth_assets.lib.citeworth.improvements import Improvement
from citeworth_assets.lib.citeworth.rule_units import capitalized, ends_with_final_mark, long_enough
from citeworth_assets.lib.citeworth.rules import CHECK_WORTHY, CITEWORTH_2021, IMPROVED_VERSIONS, RuleSet
from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.papers import PaperInput

pa = lazy_module("pyarrow")

CITATION_MARKERS = {
    "bracketed_number": re.compile(r"\[\s*\d+(?:\s*[-,;\u2013]\s*\d+)*\s*\]"),
    "author_year": re.compile(r"\([A-Z][^()]{0,80}?,?\s(?:19|20)\d\d[a-z]?\s*[;)]"),
    "parenthetical_year": re.compile(r"\(\s*(?:19|20)\d\d[a-z]?\s*\)"),
    "et_al": re.compile(r"\bet al\b"),
    "hanging_reference": re.compile(
        r"\b(?:by|of|in|see|from|as|to|with|cf\.|e\.g\.,?)"
        r"(?:,?\s+(?:in particular|especially|for example|for instance|among others|e\.g\.),?)*\s*[.?!]$",
        re.IGNORECASE,
    ),
}


EMPTIED_BRACKETS = re.compile(r"[,;:]\s*[)\]]|\(\s*\)|\[\s*\]")


@cache
def comparison_schema() -> pa.Schema:
    return pa.schema(
        [
            ("rule_set", pa.string()),
            ("candidate_papers", pa.int64()),
            ("papers_per_1000", pa.float64()),
            ("paragraphs_per_1000", pa.float64()),
            ("sentences_per_1000", pa.float64()),
            ("cite_worthy_share", pa.float64()),
            ("sentences_with_marker", pa.int64()),
            ("marker_share", pa.float64()),
            ("sentences_with_format_problem", pa.int64()),
            ("format_problem_share", pa.float64()),
            ("internal_errors", pa.int64()),
        ]
    )


def citation_marker(sentence: str) -> str | None:
    """The kind of citation marker a sentence still holds, if any."""
    return next((name for name, pattern in CITATION_MARKERS.items() if pattern.search(sentence)), None)


def format_problem(sentence: str) -> str | None:
    if sentence != sentence.strip():
        return "surrounding_whitespace"
    if len(sentence) <= 20:
        return "too_short"
    if not sentence[0].isupper():
        return "not_capitalized"
    if sentence[-1] not in ".?!":
        return "bad_ending"
    if re.search(r"\s[.?!]$", sentence):
        return "space_before_final_mark"
    if sentence.count("(") != sentence.count(")") or sentence.count("[") != sentence.count("]"):
        return "unbalanced_brackets"
    if EMPTIED_BRACKETS.search(sentence):
        return "emptied_brackets"
    return None


def fails_sentence_format(text: str, rules: RuleSet) -> bool:
    """Whether a kept sentence breaks the rule set's own format rules (length over ``short_sentence_chars``, a
    capital first, a final mark last): what the dataset promises of every sentence."""
    # a rule gives its reason when the text fails it; length first, so an empty text fails there
    return any(rule(text, rules) is not None for rule in (long_enough, capitalized, ends_with_final_mark))


def comparison_rule_sets() -> list[RuleSet]:
    """The faithful set, every improved version (the latest last) and the faithful one with each improvement alone
    (its measured effect)."""
    return [CITEWORTH_2021, *IMPROVED_VERSIONS, *(CITEWORTH_2021.with_improvements(name) for name in Improvement)]


def compare_rule_sets(papers: list[PaperInput], rule_sets: Iterable[RuleSet], splitter) -> list[dict]:
    """One row per rule set: yield per 1000 candidate papers and the quality proxies of what it keeps."""
    rows = []
    for rules in rule_sets:
        kept_papers = paragraphs = sentences = cite_worthy = markers = problems = errors = 0
        for result in clean_papers(papers, rules, splitter):
            kept_papers += bool(result.accepted)
            errors += result.paper_reason == INTERNAL_ERROR
            for accepted in result.accepted:
                paragraphs += 1
                for sample in accepted.verdict.samples:
                    sentences += 1
                    cite_worthy += sample.label == CHECK_WORTHY
                    markers += citation_marker(sample.text) is not None
                    problems += format_problem(sample.text) is not None
        per_thousand = 1000 / len(papers) if papers else 0.0
        rows.append(
            {
                "rule_set": rules.name,
                "candidate_papers": len(papers),
                "papers_per_1000": round(kept_papers * per_thousand, 1),
                "paragraphs_per_1000": round(paragraphs * per_thousand, 1),
                "sentences_per_1000": round(sentences * per_thousand, 1),
                "cite_worthy_share": round(cite_worthy / sentences, 4) if sentences else None,
                "sentences_with_marker": markers,
                "marker_share": round(markers / sentences, 4) if sentences else None,
                "sentences_with_format_problem": problems,
                "format_problem_share": round(problems / sentences, 4) if sentences else None,
                "internal_errors": errors,
            }
        )
    return rows
