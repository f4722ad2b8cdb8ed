"""Greedy ROUGE augmentation of the citing sentences (§3.5).

Start from the citing sentences as the summary; add the sentence whose addition gives the best ROUGE-N
F1 of the summary against the query (the reference's abstract); stop when no sentence improves it.
The summary is the selected sentences joined by spaces, citing sentences in document order and then
the added ones in the order they were added; ties go to the earliest sentence. The scores recorded
are the final summary's (the published code reported those of the last, rejected, candidate).

:func:`augment` keeps n-gram counts of the summary, restricted to the query's n-grams, and for a
candidate only counts its own n-grams plus the n-grams that straddle the junction with the summary's
last tokens, so a step costs O(sentences) instead of re-tokenising and re-scoring the whole summary
per candidate. Scores are computed from the same integers and with the same arithmetic as
rouge-score, so :func:`augment_naive` (the plain loop with ``RougeScorer``) selects the same
sentences; the tests and ``benchmarks/sciqfs.py`` check it. Only ROUGE-N types are incremental.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from citeworth_assets.lib.settings import SettingError

_ROUGE_N = re.compile(r"^rouge([1-9])$")


@dataclass(frozen=True)
class AugmentationSettings:
    rouge_type: str = "rouge2"  # ROUGE-N only: rouge1 ... rouge9
    use_stemmer: bool = False  # rouge-score's Porter stemming of tokens longer than 3 characters

    @property
    def n(self) -> int:
        match = _ROUGE_N.match(self.rouge_type)
        if match is None:
            raise SettingError(f"sciqfs rouge_type {self.rouge_type!r}: the augmentation supports rouge1 ... rouge9")
        return int(match.group(1))


@dataclass
class Augmentation:
    added: list[int] = field(default_factory=list)
    precision: float = 0.0
    recall: float = 0.0
    fmeasure: float = 0.0


def _ngrams(tokens: list[str], n: int) -> Counter:
    from rouge_score import (
        rouge_scorer,
    )  # imported when used: it loads absl, whose logging binds the stderr of the moment

    return rouge_scorer._create_ngrams(tokens, n)


def _score(overlap: int, predicted: int, target: int) -> tuple[float, float, float]:
    """rouge-score's ``_score_ngrams`` arithmetic, from counts."""
    precision = overlap / max(predicted, 1)
    recall = overlap / max(target, 1)
    from rouge_score import scoring

    return precision, recall, scoring.fmeasure(precision, recall)


def augment(
    sentences: list[str], query: str, citing: list[int], settings: AugmentationSettings = AugmentationSettings()
) -> Augmentation:
    """Greedy augmentation with incremental n-gram counts; ``citing`` are the citing sentences' indices."""
    n = settings.n
    from rouge_score import tokenizers

    tokenizer = tokenizers.DefaultTokenizer(use_stemmer=settings.use_stemmer)
    query_counts = _ngrams(tokenizer.tokenize(query), n)
    target = sum(query_counts.values())
    tokens = [tokenizer.tokenize(s) for s in sentences]
    # Per sentence: its query n-grams with counts, and its total number of n-grams.
    own = [[(g, c) for g, c in _ngrams(t, n).items() if g in query_counts] for t in tokens]
    own_total = [max(len(t) - n + 1, 0) for t in tokens]

    summary: Counter = Counter()
    selected = sorted(set(citing))
    stream: list[str] = []
    for index in selected:
        stream.extend(tokens[index])
    for g, c in _ngrams(stream, n).items():
        if g in query_counts:
            summary[g] = c
    predicted = max(len(stream) - n + 1, 0)
    overlap = sum(min(c, query_counts[g]) for g, c in summary.items())
    tail = stream[-(n - 1) :] if n > 1 else []
    best = _score(overlap, predicted, target)
    chosen = set(selected)
    result = Augmentation()
    while True:
        pick, pick_state, pick_score = None, None, best
        for index in range(len(sentences)):
            if index in chosen:
                continue
            junction = _ngrams(tail + tokens[index][: n - 1], n) if tail else Counter()
            gain = 0
            added = dict(own[index])
            for g, c in junction.items():
                if g in query_counts:
                    added[g] = added.get(g, 0) + c
            for g, c in added.items():
                before = summary.get(g, 0)
                limit = query_counts[g]
                gain += min(before + c, limit) - min(before, limit)
            count = predicted + own_total[index] + sum(junction.values())
            score = _score(overlap + gain, count, target)
            if score[2] > pick_score[2]:
                pick, pick_state, pick_score = index, (added, overlap + gain, count), score
        if pick is None:
            break
        added, overlap, predicted = pick_state
        summary.update(added)
        tail = (tail + tokens[pick])[-(n - 1) :] if n > 1 else []
        chosen.add(pick)
        result.added.append(pick)
        best = pick_score
    result.precision, result.recall, result.fmeasure = best
    return result


def augment_naive(
    sentences: list[str], query: str, citing: list[int], settings: AugmentationSettings = AugmentationSettings()
) -> Augmentation:
    """The reference loop: rescore the whole summary with rouge-score for every candidate."""
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer([settings.rouge_type], use_stemmer=settings.use_stemmer)
    summary = [sentences[i] for i in sorted(set(citing))]
    chosen = set(citing)
    best = scorer.score(query, " ".join(summary))[settings.rouge_type]
    result = Augmentation()
    while True:
        pick, pick_score = None, best
        for index, sentence in enumerate(sentences):
            if index in chosen:
                continue
            score = scorer.score(query, " ".join(summary + [sentence]))[settings.rouge_type]
            if score.fmeasure > pick_score.fmeasure:
                pick, pick_score = index, score
        if pick is None:
            break
        summary.append(sentences[pick])
        chosen.add(pick)
        result.added.append(pick)
        best = pick_score
    result.precision, result.recall, result.fmeasure = best.precision, best.recall, best.fmeasure
    return result


def augment_examples(examples, settings: AugmentationSettings = AugmentationSettings()):
    """Set each example's added sentences and final scores (citation labels are never touched)."""
    for example in examples:
        citing = [i for i, label in enumerate(example.citation_labels) if label]
        found = augment(example.sentences, example.query, citing, settings)
        example.added = found.added
        example.rouge_precision, example.rouge_recall, example.rouge_fmeasure = (
            found.precision,
            found.recall,
            found.fmeasure,
        )
        yield example
