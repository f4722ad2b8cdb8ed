"""CiteSum: citation sentences of Related Work sections as TLDR summaries of the cited papers (CiteSum §2.1).

The steps, in the paper's order:

1. :func:`citation_candidates`: sentences of Related Work paragraphs that cite exactly one paper,
   whose abstract is known and long enough; every other cited sentence is a drop with its reason (the criteria
   are in :mod:`~citeworth_assets.lib.citesum.criteria`);
2. :func:`score_candidates` / :func:`keep_by_rouge`: ROUGE-1/2/L recall of the sentence against the
   cited abstract, kept when all three reach 50 / 20 / 40 (:func:`threshold_report` says what each
   threshold removes);
3. :func:`replace_citations_with_ref`: each citation span (adjacent spans as one) becomes ``REF``;
4. :func:`make_example`, :func:`split_by_cited_paper` (90/5/5 without cited-paper leakage),
   :func:`dataset_statistics` (Table 3, Figure 1) and :func:`release_record` (the published files).

Where the paper is silent:

* A sentence is scored with its citation spans *removed* (not the original text, not ``REF``): the
  recall is the share of the sentence's n-grams found in the abstract, and citation markers
  (author names, numbers, the ``REF`` token) are never content of the cited abstract, so keeping
  them would penalize author-year citations against numeric ones and short sentences against long
  ones.
* A sentence touched by a citation span that crosses a sentence boundary is dropped, and a paragraph whose
  reader dropped a citation span for bad offsets is dropped whole (one drop row without sentence):
  :mod:`~citeworth_assets.lib.citesum.criteria` says why.
* Paragraphs without citation spans are not split (they cannot yield a candidate); they are counted.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from itertools import islice
from statistics import mean

from citeworth_assets.lib.citesum.criteria import PARAGRAPH_CRITERIA, SENTENCE_CRITERIA, CitingSentence
from citeworth_assets.lib.filters import first_failure
from citeworth_assets.lib.papers import PaperInput
from citeworth_assets.lib.sections import normalize_section_title
from citeworth_assets.lib.sentences import SentenceSplitter

RELATED_WORK_TITLES = ("related work", "related works")
MIN_ABSTRACT_WORDS = 20
ROUGE_TYPES = ("rouge1", "rouge2", "rougeL")
ROUGE_THRESHOLDS = {"rouge1": 50.0, "rouge2": 20.0, "rougeL": 40.0}  # recall x100, §2.1
SPLITS = ("train", "validation", "test")
REF = "REF"
# Only whitespace and list separators between two spans: "[1], [2]", "Smith (2019); Lee (2020)".
BETWEEN_ADJACENT_SPANS = re.compile(r"[\s,;]*")


def is_related_work(section: str | None) -> bool:
    """Only Related Work describes the cited papers themselves (not background or set-up)."""
    return normalize_section_title(section or "") in RELATED_WORK_TITLES


# -- 1. candidates ------------------------------------------------------------------------------


def citation_candidates(
    papers: Iterable[PaperInput],
    abstracts: Mapping[str, str | None],
    splitter: SentenceSplitter,
    min_abstract_words: int = MIN_ABSTRACT_WORDS,
) -> tuple[list[dict], list[dict], Counter]:
    """All candidates, drops and counts of ``papers`` (see :func:`iter_citation_candidates`)."""
    candidates, drops, counts = [], [], Counter()
    for paper_candidates, paper_drops in iter_citation_candidates(
        papers, abstracts, splitter, min_abstract_words, counts
    ):
        candidates.extend(paper_candidates)
        drops.extend(paper_drops)
    return candidates, drops, counts


def iter_citation_candidates(
    papers: Iterable[PaperInput],
    abstracts: Mapping[str, str | None],
    splitter: SentenceSplitter,
    min_abstract_words: int = MIN_ABSTRACT_WORDS,
    counts: Counter | None = None,
    batch_papers: int = 64,
) -> Iterator[tuple[list[dict], list[dict]]]:
    """(candidates, drops) per citing paper, in order; paragraphs are split a batch of papers at a time.

    ``abstracts`` maps a paper id to its abstract (the cited papers at least). A candidate is
    ``{citing_paper_id, cited_paper_id, paragraph_index, sentence_index, sentence, spans}`` with the
    citation spans' offsets relative to the sentence; a drop names its reason. ``counts``, if given,
    accumulates what was read: papers, Related Work paragraphs, sentences (the runner tallies kept and dropped).
    """
    counts = Counter() if counts is None else counts
    papers = iter(papers)
    while batch := list(islice(papers, batch_papers)):
        results = [([], []) for _ in batch]
        to_split = []
        for position, paper in enumerate(batch):
            counts["papers"] += 1
            related = [paragraph for paragraph in paper.paragraphs if is_related_work(paragraph["section"])]
            counts["papers_with_related_work"] += bool(related)
            counts["related_work_paragraphs"] += len(related)
            for paragraph in related:
                if not paragraph["cite_spans"]:
                    counts["paragraphs_without_citations"] += 1
                elif reason := first_failure(PARAGRAPH_CRITERIA, paragraph):
                    results[position][1].append(_drop(paper.paper_id, paragraph, None, None, reason))
                else:
                    to_split.append((position, paper.paper_id, paragraph))
        texts = [paragraph["text"] for _, _, paragraph in to_split]
        bounds = splitter.sentence_bounds(list(splitter.tokenize(texts)), texts)
        for (position, paper_id, paragraph), sentence_bounds in zip(to_split, bounds):
            candidates, drops = results[position]
            for item in paragraph_candidates(
                paper_id, paragraph, sentence_bounds, abstracts, min_abstract_words, counts
            ):
                (drops if "reason" in item else candidates).append(item)
        yield from results


def paragraph_candidates(
    paper_id: str,
    paragraph: dict,
    sentence_bounds: list[tuple[int, int]],
    abstracts: Mapping[str, str | None],
    min_abstract_words: int,
    counts: Counter,
) -> Iterator[dict]:
    """Candidates and drops (rows with a ``reason``) of one split paragraph."""
    text, spans = paragraph["text"], paragraph["cite_spans"]
    for sentence_index, (start, end) in enumerate(sentence_bounds):
        counts["sentences"] += 1
        touching = [span for span in spans if span["start"] < end and span["end"] > start]
        if not touching:
            counts["sentences_without_citations"] += 1
            continue
        sentence = text[start:end]
        inside = [span for span in touching if span["start"] >= start and span["end"] <= end]
        judged = CitingSentence(sentence, paragraph, touching, inside, abstracts, min_abstract_words)
        if reason := first_failure(SENTENCE_CRITERIA, judged):
            yield _drop(paper_id, paragraph, sentence_index, sentence, reason)
            continue
        yield {
            "citing_paper_id": paper_id,
            "cited_paper_id": judged.cited_paper,
            "paragraph_index": paragraph["paragraph_index"],
            "sentence_index": sentence_index,
            "sentence": sentence,
            "spans": [{"start": span["start"] - start, "end": span["end"] - start} for span in inside],
        }


def _drop(paper_id: str, paragraph: dict, sentence_index: int | None, sentence: str | None, reason: str) -> dict:
    return {
        "citing_paper_id": paper_id,
        "paragraph_index": paragraph["paragraph_index"],
        "sentence_index": sentence_index,
        "sentence": sentence,
        "reason": reason,
    }


# -- 2. ROUGE filter ----------------------------------------------------------------------------


@cache
def rouge_scorer():
    """The one ROUGE scorer (stemming on, as for all CiteSum figures)."""
    from rouge_score import rouge_scorer as rouge

    return rouge.RougeScorer(list(ROUGE_TYPES), use_stemmer=True)


def rouge_recall(sentence: str, abstract: str) -> dict[str, float]:
    """ROUGE-1/2/L recall x100 of ``sentence`` against ``abstract``: the share of the sentence found in it.

    Rounded to 4 decimals so that a recall equal to a threshold compares equal (57/100 x 100 is
    56.99999999999999 in floating point).
    """
    scores = rouge_scorer().score(target=sentence, prediction=abstract)
    return {f"{name}_recall": round(100 * scores[name].recall, 4) for name in ROUGE_TYPES}


def score_candidates(candidates: Iterable[dict], abstracts: Mapping[str, str]) -> Iterator[dict]:
    """Candidates with ``rouge1_recall``, ``rouge2_recall``, ``rougeL_recall`` (citation spans removed)."""
    for candidate in candidates:
        scored_text = remove_citations(candidate["sentence"], candidate["spans"])
        yield {**candidate, **rouge_recall(scored_text, abstracts[candidate["cited_paper_id"]])}


def failed_thresholds(scored: dict, thresholds: Mapping[str, float] = ROUGE_THRESHOLDS) -> list[str]:
    """The ROUGE types whose recall stays below its threshold."""
    return [name for name, threshold in thresholds.items() if scored[f"{name}_recall"] < threshold]


def passes(scored: dict, thresholds: Mapping[str, float] = ROUGE_THRESHOLDS) -> bool:
    """Kept when every recall reaches its threshold: enough of the sentence comes from the cited paper."""
    return not failed_thresholds(scored, thresholds)


def keep_by_rouge(scored: Iterable[dict], thresholds: Mapping[str, float] = ROUGE_THRESHOLDS) -> Iterator[dict]:
    """The scored candidates that pass all thresholds."""
    return (candidate for candidate in scored if passes(candidate, thresholds))


def threshold_report(scores: Iterable[dict], thresholds: Mapping[str, float] = ROUGE_THRESHOLDS) -> dict:
    """How many candidates each threshold removes alone, and applied in sequence (R-1, then R-2, then R-L)."""
    scores = list(scores)
    alone = {name: sum(s[f"{name}_recall"] < threshold for s in scores) for name, threshold in thresholds.items()}
    in_sequence, remaining = {}, scores
    for name, threshold in thresholds.items():
        survivors = [s for s in remaining if s[f"{name}_recall"] >= threshold]
        in_sequence[name] = len(remaining) - len(survivors)
        remaining = survivors
    kept_means = {
        name: round(mean(s[f"{name}_recall"] for s in remaining), 2) if remaining else None for name in thresholds
    }
    return {
        "candidates": len(scores),
        "removed_alone": alone,
        "removed_in_sequence": in_sequence,
        "kept": len(remaining),
        "kept_mean_recall": kept_means,  # the paper reports 73.1 / 39.4 / 58.5 after filtering
    }


# -- 3. REF replacement -------------------------------------------------------------------------


def merge_adjacent_spans(text: str, spans: Iterable[dict]) -> list[tuple[int, int]]:
    """(start, end) of citation groups: spans separated only by whitespace , ; are one citation."""
    merged: list[list[int]] = []
    for span in sorted(spans, key=lambda span: (span["start"], span["end"])):
        start, end = span["start"], span["end"]
        if merged and (start <= merged[-1][1] or BETWEEN_ADJACENT_SPANS.fullmatch(text, merged[-1][1], start)):
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [(start, end) for start, end in merged]


def replace_citations_with_ref(text: str, spans: Iterable[dict]) -> str:
    """``text`` with each citation (adjacent spans as one) replaced by ``REF``: citation styles vary, the meaning
    does not.

    A space is put between ``REF`` and a word it would touch ("model[3]" -> "model REF").
    """
    for start, end in reversed(merge_adjacent_spans(text, spans)):  # from the right: offsets stay valid
        before, after = text[:start], text[end:]
        if before and not before[-1].isspace() and before[-1] not in "([{":
            before += " "
        if after and after[0].isalnum():
            after = " " + after
        text = before + REF + after
    return text


def remove_citations(text: str, spans: Iterable[dict]) -> str:
    """``text`` without its citation spans, whitespace collapsed: what the ROUGE filter scores."""
    for start, end in reversed(merge_adjacent_spans(text, spans)):
        text = text[:start] + " " + text[end:]
    return " ".join(text.split())


# -- 4. examples --------------------------------------------------------------------------------


def make_example(scored: dict, cited_paper: Mapping | None = None) -> dict:
    """A CiteSum example from a kept candidate; ``cited_paper`` (an ``s2orc_papers`` row) adds title, abstract,
    discipline."""
    example = {
        "citing_paper_id": scored["citing_paper_id"],
        "cited_paper_id": scored["cited_paper_id"],
        "paragraph_index": scored["paragraph_index"],
        "sentence_index": scored["sentence_index"],
        "sentence": scored["sentence"],
        "target": replace_citations_with_ref(scored["sentence"], scored["spans"]),
        **{f"{name}_recall": scored[f"{name}_recall"] for name in ROUGE_TYPES},
    }
    if cited_paper is not None:
        example["title"] = cited_paper.get("title")
        example["abstract"] = cited_paper.get("abstract")
        example["discipline"] = discipline(cited_paper.get("mag_field_of_study"))
    return example


def discipline(fields_of_study: list[str] | None) -> str | None:
    """The paper's discipline: its first MAG field of study, as the paper takes the top one."""
    return fields_of_study[0] if fields_of_study else None


# -- 5. split -----------------------------------------------------------------------------------


def split_by_cited_paper(
    examples: Iterable[dict], seed: int, fractions: tuple[float, float, float] = (0.9, 0.05, 0.05)
) -> dict[str, list[dict]]:
    """Train / validation / test examples, every cited paper in one split only (no label leakage).

    Cited papers are ranked by an MD5 of ``f"{seed}:{paper_id}"`` (deterministic across runs and
    machines); validation takes papers in that order until it holds its share of the examples, then
    test, and train the rest. Examples keep their input order within a split.
    """
    if abs(sum(fractions) - 1) > 1e-9:
        raise ValueError(f"split fractions {fractions} must sum to 1")
    examples = list(examples)
    per_paper = Counter(example["cited_paper_id"] for example in examples)
    ranked = sorted(per_paper, key=lambda paper_id: hashlib.md5(f"{seed}:{paper_id}".encode()).hexdigest())
    wanted = {"validation": fractions[1] * len(examples), "test": fractions[2] * len(examples)}
    split_of, taken = {}, Counter()
    for paper_id in ranked:
        split = next((name for name in ("validation", "test") if taken[name] < wanted[name]), "train")
        split_of[paper_id] = split
        taken[split] += per_paper[paper_id]
    splits = {name: [] for name in SPLITS}
    for example in examples:
        splits[split_of[example["cited_paper_id"]]].append(example)
    return splits


# -- 6. statistics ------------------------------------------------------------------------------


def words(text: str | None) -> int:
    return len((text or "").split())


def dataset_statistics(splits: Mapping[str, list[dict]]) -> dict:
    """Table 3 (examples per split, mean words of source and summary) and Figure 1 (papers per discipline).

    Words are whitespace tokens. Disciplines count distinct cited papers, as Figure 1 does; papers
    without a field of study count as ``unknown``. Figure 2's citations per paper come along.
    """
    examples = [example for split in splits.values() for example in split]
    papers = {example["cited_paper_id"]: example.get("discipline") or "unknown" for example in examples}
    return {
        "examples": {name: len(split) for name, split in splits.items()},
        "mean_source_words": round(mean(words(e["abstract"]) for e in examples), 2) if examples else None,
        "mean_summary_words": round(mean(words(e["target"]) for e in examples), 2) if examples else None,
        "cited_papers": len(papers),
        "mean_examples_per_cited_paper": round(len(examples) / len(papers), 2) if papers else None,
        "disciplines": dict(Counter(papers.values()).most_common()),
    }


# -- 7. release ---------------------------------------------------------------------------------


def release_record(example: dict) -> dict:
    """One line of the released files, with the published CiteSum field names."""
    return {
        "src": example["abstract"],
        "tgt": example["target"],
        "paper_id": example["cited_paper_id"],
        "title": example["title"],
        "discipline": example["discipline"],
    }
