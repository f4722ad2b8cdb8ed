"""Greedy ROUGE augmentation (ROUGE-SciQFS §3.5): the incremental search equals the rouge-score loop."""

import random

import pytest

from citeworth_assets.lib.read_issues import IssueLog
from citeworth_assets.lib.sciqfs.augmentation import (
    AugmentationSettings,
    augment,
    augment_examples,
    augment_naive,
)
from citeworth_assets.lib.sciqfs.examples import build_examples, default_splitter
from citeworth_assets.lib.sciqfs.s2orc_source import paper_from_pdf_parse
from citeworth_assets.lib.sciqfs.sample import generate_dump
from citeworth_assets.lib.sciqfs.tables import build_tables
from citeworth_assets.lib.settings import SettingError

WORDS = [
    "model",
    "models",
    "modelling",
    "data",
    "the",
    "of",
    "a",
    "learning",
    "learned",
    "graph",
    "graphs",
    "neural",
    "net",
    "über",
    "café",
    "3d",
    "x-ray",
]


def _document(rng: random.Random, sentences: int):
    def text(k):
        return " ".join(rng.choice(WORDS) for _ in range(k))

    document = [text(rng.randint(0, 9)) + rng.choice([".", "!", "", " (2019)."]) for _ in range(sentences)]
    document[rng.randrange(sentences)] = document[0]  # duplicate sentences happen in real parses
    return document, text(rng.randint(0, 40)), rng.sample(range(sentences), rng.randint(0, min(3, sentences)))


@pytest.mark.parametrize("rouge_type,stem", [("rouge1", False), ("rouge2", False), ("rouge2", True), ("rouge3", False)])
def test_incremental_search_selects_what_the_naive_loop_selects(rouge_type, stem):
    rng = random.Random(rouge_type + str(stem))
    settings = AugmentationSettings(rouge_type, stem)
    added_any = 0
    for _ in range(60):
        document, query, citing = _document(rng, rng.randint(1, 25))
        fast, naive = augment(document, query, citing, settings), augment_naive(document, query, citing, settings)
        assert fast.added == naive.added
        assert (fast.precision, fast.recall, fast.fmeasure) == (naive.precision, naive.recall, naive.fmeasure)
        added_any += bool(fast.added)
    assert added_any > 10  # the comparison is not between two empty searches


def test_final_scores_are_the_final_summarys():
    document = [
        "Graph neural networks learn graphs.",
        "Unrelated words here.",
        "Neural networks learn representations of graphs.",
    ]
    query = "Graph neural networks learn representations of graphs."
    found = augment(document, query, [0])
    assert found.added == [2]  # sentence 1 shares no bigram and is rejected
    summary = " ".join([document[0], document[2]])
    from rouge_score import rouge_scorer

    expected = rouge_scorer.RougeScorer(["rouge2"]).score(query, summary)["rouge2"]
    assert (found.precision, found.recall, found.fmeasure) == tuple(expected)


def test_only_rouge_n_is_a_valid_setting():
    with pytest.raises(SettingError, match="rougeL"):
        augment(["a b"], "a b", [], AugmentationSettings("rougeL"))


def test_augmentation_never_removes_a_citation_label():
    split = default_splitter()
    records, abstracts = generate_dump()
    log = IssueLog()
    tables = build_tables([paper_from_pdf_parse(r, split, abstracts, log) for r in records], log)
    examples = list(augment_examples(build_examples(tables, split)))
    assert sum(len(e.added) for e in examples) > 0
    for example in examples:
        for label, after, source in zip(example.citation_labels, example.labels, example.label_sources):
            assert after >= label
            assert source == ("citation" if label else "rouge" if after else None)
        assert not set(example.added) & {i for i, label in enumerate(example.citation_labels) if label}
        assert example.rouge_fmeasure is not None
