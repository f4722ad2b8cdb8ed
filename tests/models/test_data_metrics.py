import torch

from citeworth_models.data import load_paragraphs, load_sentences
from citeworth_models.losses import class_weights, weighted_cross_entropy
from citeworth_models.metrics import cite_worthy_scores


def test_loaders_filter_split_and_field(table):
    paragraphs = load_paragraphs(table)
    assert len(paragraphs) == 60
    assert all(len(s) == len(y) and 3 <= len(s) <= 6 for s, y in paragraphs)
    train = load_paragraphs(table, split="train")
    assert len(train) == 40
    bio = load_sentences(table, split="dev", fields=["Biology"])
    assert bio and all(label in (0, 1) for _, label in bio)
    sentences = load_sentences(table)
    assert len(sentences) == sum(len(s) for s, _ in paragraphs)
    assert all(
        (label == 1) == any(c in text for c in ("shown", "reported", "found", "proposed", "demonstrated"))
        for text, label in sentences
    )


def test_scores_are_for_cite_worthy_class():
    scores = cite_worthy_scores([1, 1, 0, 0], [1, 0, 1, 0])
    assert scores == {"precision": 0.5, "recall": 0.5, "f1": 0.5}
    assert cite_worthy_scores([0, 0], [0, 0])["f1"] == 0.0


def test_class_weights_formula():
    weights = class_weights([0, 0, 0, 1])
    assert torch.allclose(weights, torch.tensor([4 / (2 * 3), 4 / (2 * 1)]))


def test_weighted_cross_entropy_matches_torch():
    logits = torch.randn(5, 2)
    labels = torch.tensor([0, 1, 1, 0, 1])
    weight = torch.tensor([0.7, 2.0])
    expected = torch.nn.functional.cross_entropy(logits, labels, weight=weight)
    assert torch.allclose(weighted_cross_entropy(logits, labels, weight), expected)
