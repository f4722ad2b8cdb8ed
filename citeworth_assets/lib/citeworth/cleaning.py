"""Running a CiteWorth rule set over papers: one pipeline from a paper's paragraphs to lake rows.

Per batch of papers, in the published order (CiteWorth §3.1-3.2), each stage applying the rule set's
units (:mod:`~citeworth_assets.lib.citeworth.rule_units`) and recording the first failing one as a
:class:`Decision`:

1. select: paragraph selection rules on each paragraph, paper rules on the selected ones;
2. tokenize the selected paragraphs (batched) and merge their citation spans;
3. paragraph rules decided before splitting;
4. split the remaining paragraphs into sentences (batched; the splitting improvements adjust them) and
   apply the paragraph rules on sentences;
5. sentence rules on each sentence in turn (:func:`judge_sentences`): the first failing sentence drops
   its paragraph;
6. results: per paper its accepted paragraphs with their labelled sentences, and its drops
   (:mod:`~citeworth_assets.lib.citeworth.partition` turns them into lake rows).

Splitting is by far the most expensive step, so it is done only for paragraphs whose fate depends on
it: a paragraph holding a span with visible text that is not bracketed is dropped before splitting
(``citation_not_bracketed``), since its sentence is context-only whatever the boundaries; so is, with
the default splitter, a paragraph that cannot hold enough sentences or whose citation is followed by
text in its sentence whatever the boundaries (:func:`certain_drop`). The accepted output is exactly
the published code's; only the recorded reason of a paragraph that fails several rules may name such
a rule rather than, say, ``fewer_than_3_sentences``.

No paper can abort a run: an unexpected exception while cleaning a batch is retried paper by paper,
and the paper that raises it is dropped with the reason ``internal_error`` (the exception, where it was
raised, and the paper's provenance in its rejection row), so the other papers' output is complete and
the error is counted and checked, not silent.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from typing import NamedTuple

from citeworth_assets.lib.citeworth.citations import (
    merge_citation_spans,
    sentences_with_citations,
)
from citeworth_assets.lib.citeworth.fate import (
    merged_without_tokens,
    most_sentences,
    text_follows_citation,
)
from citeworth_assets.lib.citeworth.rule_units import (
    TEXT_AFTER_CITATION,
    CitedParagraph,
    citations_bracketed_at_end,
    enough_sentences,
)
from citeworth_assets.lib.citeworth.rules import CHECK_WORTHY, CONTEXT_ONLY, NON_CHECK_WORTHY, RuleSet, adjust_sentences
from citeworth_assets.lib.filters import first_failure
from citeworth_assets.lib.papers import PaperInput
from citeworth_assets.lib.sentences import SentenceSplitter


@dataclass
class Decision:
    level: str  # paper | paragraph
    paper_id: str
    reason: str
    paragraph_index: int | None = None
    sentence_index: int | None = None
    sentence_text: str | None = None
    detail: str | None = None  # internal_error: the exception and where it was raised

    def __str__(self) -> str:
        where = self.paper_id if self.paragraph_index is None else f"{self.paper_id} paragraph {self.paragraph_index}"
        sentence = (
            f" (sentence {self.sentence_index}: {self.sentence_text!r})" if self.sentence_index is not None else ""
        )
        detail = f" ({self.detail})" if self.detail else ""
        return f"{where}: {self.reason}{sentence}{detail}"


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


@dataclass
class AcceptedParagraph:
    paragraph: dict
    verdict: ParagraphVerdict


@dataclass
class PaperResult:
    paper: PaperInput
    accepted: list[AcceptedParagraph] = field(default_factory=list)
    drops: list[Decision] = field(default_factory=list)
    paper_reason: str | None = None  # None: the paper had paragraphs to consider


class Selection(NamedTuple):
    selected: list[dict]
    skipped: list[Decision]
    paper_reason: str | None


def select_paragraphs(paper: PaperInput, rules: RuleSet) -> Selection:
    """Paragraphs worth cleaning, the others with their reasons, and the paper's drop reason (if dropped).

    As in the published code, the scan stops at the first selected paragraph when its first citation
    drops the paper: later paragraphs get no decision.
    """
    selected, skipped = [], []
    for paragraph in paper.paragraphs:
        reason = first_failure(rules.paragraph_selection, paragraph, rules)
        if reason:
            skipped.append(Decision("paragraph", paper.paper_id, reason, paragraph["paragraph_index"]))
            continue
        if not selected and (reason := first_failure(rules.first_paragraph_rules, paragraph, rules)):
            return Selection([], skipped, reason)
        selected.append(paragraph)
    reason = first_failure(rules.paper_rules, selected, rules)
    return Selection([] if reason else selected, skipped, reason)


def judge_sentences(paragraph: CitedParagraph, bounds: list[tuple[int, int]], rules: RuleSet) -> ParagraphVerdict:
    """Label each sentence, or say which sentence drops the paragraph and why (published ``dataset_worker`` loop).

    A context-only sentence does not stop the walk (a later failing sentence names the reason); the
    paper drops such a paragraph, the published code keeps it under a third label.
    """
    verdict = ParagraphVerdict()
    text = paragraph.row["text"]
    for sentence in sentences_with_citations(text, bounds, paragraph.spans):
        reason = first_failure(rules.sentence_rules, sentence, rules)
        if reason:
            return ParagraphVerdict(reason=reason, sentence_index=sentence.index, sentence_text=sentence.text)
        if not sentence.citations:
            reason = first_failure(rules.plain_sentence_rules, sentence.text, rules)
            if reason:
                return ParagraphVerdict(reason=reason, sentence_index=sentence.index, sentence_text=sentence.text)
            verdict.samples.append(Sample(sentence.text, NON_CHECK_WORTHY, sentence.text))
            continue
        cleaned = rules.cleaned_sentence(text, sentence)
        reason = first_failure(rules.cited_sentence_rules, cleaned, rules)
        if reason:
            return ParagraphVerdict(reason=reason, sentence_index=sentence.index, sentence_text=cleaned)
        context_only = first_failure(rules.context_only_rules, sentence, rules)
        if context_only and verdict.reason is None:
            verdict.reason, verdict.sentence_index, verdict.sentence_text = context_only, sentence.index, sentence.text
        own = sentence.citations
        label = CONTEXT_ONLY if context_only else CHECK_WORTHY
        verdict.samples.append(Sample(cleaned, label, sentence.text, [s.ref_ids for s in own], [s.text for s in own]))
    if verdict.reason:
        verdict.samples = []
    return verdict


INTERNAL_ERROR = "internal_error"


def clean_papers(
    papers: Iterable[PaperInput],
    rules: RuleSet,
    splitter: SentenceSplitter,
    batch_papers: int = 64,
    timings: dict[str, float] | None = None,
    decide_before_splitting: bool = True,
) -> Iterator[PaperResult]:
    """Results for each paper, in order; paragraphs are tokenized and split a batch of papers at a time.

    ``timings``, if given, accumulates CPU seconds spent tokenizing, splitting and applying the rules.
    ``decide_before_splitting`` drops, unsplit, the paragraphs :func:`certain_drop` proves dropped (off:
    everything is split, the straightforward path the parity tests compare with). A batch that raises is cleaned
    again one paper at a time, so that only the paper that raises is lost, as an ``internal_error`` drop
    (:func:`failed_result`).
    """
    papers = iter(papers)
    while batch := list(islice(papers, batch_papers)):
        try:
            yield from _clean_batch(batch, rules, splitter, timings, decide_before_splitting)
        except Exception:  # noqa: BLE001  any bug: retry paper by paper to find the paper that raises
            yield from (_clean_alone(paper, rules, splitter, timings, decide_before_splitting) for paper in batch)


def _clean_alone(paper: PaperInput, rules: RuleSet, splitter: SentenceSplitter, timings, decide: bool) -> PaperResult:
    try:
        (result,) = _clean_batch([paper], rules, splitter, timings, decide)
        return result
    except Exception as error:  # noqa: BLE001  a bug in cleaning this paper drops it, not the run
        return failed_result(paper, error)


def failed_result(paper: PaperInput, error: Exception) -> PaperResult:
    """The paper dropped for an exception: its type, message and the innermost place it was raised."""
    frames = traceback.extract_tb(error.__traceback__)
    where = f" at {frames[-1].filename.rsplit('/', 1)[-1]}:{frames[-1].lineno} in {frames[-1].name}" if frames else ""
    detail = f"{type(error).__name__}: {error}{where}"
    return PaperResult(
        paper, drops=[Decision("paper", paper.paper_id, INTERNAL_ERROR, detail=detail)], paper_reason=INTERNAL_ERROR
    )


def _clean_batch(
    batch: list[PaperInput],
    rules: RuleSet,
    splitter: SentenceSplitter,
    timings: dict[str, float] | None,
    decide_before_splitting: bool,
) -> list[PaperResult]:
    """One batch of :func:`clean_papers` without the guard: an exception escapes."""
    clock = _Clock(timings)
    clock.lap(None)
    results, selected = [], []
    for paper in batch:  # 1. select
        selection = select_paragraphs(paper, rules)
        result = PaperResult(paper, drops=selection.skipped, paper_reason=selection.paper_reason)
        if selection.paper_reason:
            result.drops.append(Decision("paper", paper.paper_id, selection.paper_reason))
        results.append(result)
        selected.extend((result, paragraph) for paragraph in selection.selected)
    clock.lap("rules")
    to_split = _before_splitting(selected, rules, splitter, decide_before_splitting, clock)  # 2-3.
    texts = [paragraph.row["text"] for _, paragraph, _ in to_split]  # 4. split
    bounds = splitter.sentence_bounds([doc for _, _, doc in to_split], texts)
    clock.lap("split")
    for (result, paragraph, _), text, sentences in zip(to_split, texts, bounds):  # 5. sentence rules
        sentences = adjust_sentences(text, sentences, rules, splitter)
        reason = first_failure(rules.split_paragraph_rules, sentences, rules)
        verdict = ParagraphVerdict(reason=reason) if reason else judge_sentences(paragraph, sentences, rules)
        _record(result, paragraph.row, verdict)
    clock.lap("rules")
    for result in results:
        result.accepted.sort(key=lambda accepted: accepted.paragraph["paragraph_index"])
        result.drops.sort(key=lambda drop: -1 if drop.paragraph_index is None else drop.paragraph_index)
    return results


def _before_splitting(selected: list, rules: RuleSet, splitter: SentenceSplitter, decide: bool, clock: _Clock) -> list:
    """Steps 2-3: tokenize, merge the spans and apply the paragraph rules decided before splitting; returns the
    paragraphs left to split with their tokens.

    With the default splitter, a paragraph whose spans merge without tokens
    (:func:`~citeworth_assets.lib.citeworth.fate.merged_without_tokens`) is judged first and tokenized only
    when it is left to split.
    """
    certain = decide and splitter.name == "scispacy_pysbd"
    to_split, untokenized, judged = [], [], []

    def judge(result: PaperResult, paragraph: CitedParagraph, doc) -> None:
        reason = first_failure(rules.paragraph_rules, paragraph, rules) or (certain and certain_drop(paragraph, rules))
        if reason:
            _record(result, paragraph.row, ParagraphVerdict(reason=reason))
        elif doc is None:
            untokenized.append((result, paragraph))
        else:
            to_split.append((result, paragraph, doc))

    for result, row in selected:
        spans = merged_without_tokens(row["text"], row["cite_spans"], rules.merge_below_tokens) if certain else None
        if spans is None:
            judged.append((result, row))
        else:
            judge(result, CitedParagraph(row, spans), None)
    clock.lap("rules")
    docs = list(splitter.tokenize(row["text"] for _, row in judged))
    clock.lap("tokenize")
    for (result, row), doc in zip(judged, docs):
        judge(
            result,
            CitedParagraph(
                row,
                merge_citation_spans(
                    row["text"], row["cite_spans"], doc.to_array("IDX").tolist(), rules.merge_below_tokens
                ),
            ),
            doc,
        )
    clock.lap("rules")
    docs = splitter.tokenize(paragraph.row["text"] for _, paragraph in untokenized)
    to_split += [(result, paragraph, doc) for (result, paragraph), doc in zip(untokenized, docs)]
    clock.lap("tokenize")
    return to_split


def certain_drop(paragraph: CitedParagraph, rules: RuleSet) -> str | None:
    """The reason a paragraph is dropped whatever the ``scispacy_pysbd`` splitter's boundaries, if it can be
    proved without splitting (:mod:`~citeworth_assets.lib.citeworth.fate`), for the rules of the set."""
    text = paragraph.row["text"]
    if enough_sentences in rules.split_paragraph_rules and most_sentences(text) < rules.min_sentences:
        return enough_sentences.reasons[0]
    followed = citations_bracketed_at_end in rules.context_only_rules and any(
        text_follows_citation(text, span.end, TEXT_AFTER_CITATION) for span in paragraph.spans
    )
    return "citation_not_at_sentence_end" if followed else None


class _Clock:
    def __init__(self, timings: dict[str, float] | None):
        self.timings, self.last = timings, time.process_time()

    def lap(self, name: str | None) -> None:
        now = time.process_time()
        if self.timings is not None and name:
            self.timings[name] = self.timings.get(name, 0.0) + now - self.last
        self.last = now


def _record(result: PaperResult, paragraph: dict, verdict: ParagraphVerdict) -> None:
    if verdict.reason:
        result.drops.append(
            Decision(
                "paragraph",
                result.paper.paper_id,
                verdict.reason,
                paragraph["paragraph_index"],
                verdict.sentence_index,
                verdict.sentence_text,
            )
        )
    else:
        result.accepted.append(AcceptedParagraph(paragraph, verdict))
