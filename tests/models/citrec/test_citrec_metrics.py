"""Metrics against hand-computed values: partial relevance, no relevant item, short rankings, ties."""

import math

import numpy as np
import pytest

from citeworth_models.citrec.metrics import item_metrics, mean_metrics, top_k

# The thesis author's worked example: 'a' is cited, 'b'..'e' are adjacent citations.
RANKING = ["-1", "b", "-3", "-4", "a", "-6", "-7", "-8", "c", "-10", "d", "e"]


def test_partial_relevance_by_hand():
    m = item_metrics(RANKING, "a", ["b", "c", "d", "e"])
    assert m["recall"] == [0, 0, 0, 0, 1, 1, 1, 1, 1, 1]
    assert m["mrr"] == [0, 0, 0, 0, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2]
    # relevant at ranks 2 (b), 5 (a), 9 (c): precisions 1/2, 2/5, 3/9, divided by the number found so far
    expected_map = [0, 0.5, 0.5, 0.5, 0.45, 0.45, 0.45, 0.45, (0.5 + 0.4 + 1 / 3) / 3, (0.5 + 0.4 + 1 / 3) / 3]
    assert m["map"] == pytest.approx(expected_map)
    half = math.sqrt(2) - 1  # gain 2**0.5 - 1 of an adjacent citation
    dcg5 = half / math.log2(3) + 1 / math.log2(6)
    idcg5 = 1 + half * (1 / math.log2(3) + 1 / math.log2(4) + 1 / math.log2(5) + 1 / math.log2(6))
    assert m["ndcg"][0] == 0
    assert m["ndcg"][1] == pytest.approx((half / math.log2(3)) / (1 + half / math.log2(3)))
    assert m["ndcg"][4] == pytest.approx(dcg5 / idcg5) and m["ndcg"][4] == pytest.approx(0.35870, abs=1e-4)


def test_cited_first_is_perfect_and_no_relevant_item_is_zero():
    perfect = item_metrics(["a", "x"], "a")
    assert all(perfect[name] == [1.0] * 10 for name in ("recall", "mrr", "map", "ndcg"))
    nothing = item_metrics(["x", "y", "z"], "a", ["b"])
    assert all(nothing[name] == [0.0] * 10 for name in nothing)
    empty = item_metrics([], "a")
    assert all(empty[name] == [0.0] * 10 for name in empty)


def test_adjacent_only_counts_for_map_and_ndcg():
    m = item_metrics(["b", "a"], "a", ["b"])
    assert m["recall"][0] == 0 and m["mrr"][0] == 0
    assert m["map"][0] == 1.0  # b is relevant and found at rank 1
    assert m["ndcg"][0] == pytest.approx(math.sqrt(2) - 1)
    # at k = 2: DCG = (sqrt2-1) + 1/log2(3); IDCG = 1 + (sqrt2-1)/log2(3)
    assert m["ndcg"][1] == pytest.approx(
        ((math.sqrt(2) - 1) + 1 / math.log2(3)) / (1 + (math.sqrt(2) - 1) / math.log2(3))
    )
    assert m["map"][1] == pytest.approx((1 + 1) / 2)


def test_mean_over_items():
    means = mean_metrics([item_metrics(["a"], "a"), item_metrics(["x", "a"], "a")])
    assert means["mrr"][0] == 0.5 and means["mrr"][1] == 0.75 and means["recall"][1] == 1.0
    assert mean_metrics([])["ndcg"] == [0.0] * 10


def test_top_k_ties_go_to_lower_index_and_zeros_are_dropped():
    scores = np.array([0.5, 0.9, 0.5, 0.5, 0.0, 0.5])
    assert top_k(scores, 3).tolist() == [1, 0, 2]
    assert top_k(scores, 10).tolist() == [1, 0, 2, 3, 5]
    assert top_k(scores, 10, drop_zero=False).tolist() == [1, 0, 2, 3, 5, 4]
    assert top_k(np.zeros(4), 3).tolist() == []
    rng = np.random.default_rng(0)
    many = rng.integers(0, 5, 1000).astype(float)
    expected = sorted(range(1000), key=lambda i: (-many[i], i))[:10]
    assert top_k(many, 10).tolist() == expected


def test_binary_ndcg_agrees_with_scikit_learn():
    """Without adjacent citations the thesis's NDCG is the standard one: check against sklearn's ndcg_score."""
    from sklearn.metrics import ndcg_score

    rng = np.random.default_rng(3)
    for _ in range(20):
        n = 15
        scores = rng.permutation(n).astype(float)  # distinct scores: no ties for sklearn to average
        cited = int(rng.integers(n))
        ranking = [str(i) for i in top_k(scores, n, drop_zero=False)]
        ours = item_metrics(ranking, str(cited))["ndcg"]
        truth = np.zeros((1, n))
        truth[0, cited] = 1
        for k in (1, 5, 10):
            assert ours[k - 1] == pytest.approx(ndcg_score(truth, scores[None, :], k=k))
