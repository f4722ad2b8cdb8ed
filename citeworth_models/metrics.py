"""Precision, recall and F1 of the cite-worthy class, as reported in Table 4.

The paper uses scikit-learn's precision_recall_fscore_support (Appendix C.5);
only the positive class is reported.
"""

from __future__ import annotations

from collections.abc import Sequence

from sklearn.metrics import precision_recall_fscore_support


def cite_worthy_scores(gold: Sequence[int], predicted: Sequence[int]) -> dict[str, float]:
    """Scores of class 1; 0.0 instead of a warning when a class is empty."""
    precision, recall, f1, _ = precision_recall_fscore_support(
        list(gold), list(predicted), average="binary", pos_label=1, zero_division=0
    )
    return {"precision": float(precision), "recall": float(recall), "f1": float(f1)}


def cite_worthy_f1(gold: Sequence[int], predicted: Sequence[int]) -> float:
    """F1 alone, the model-selection metric of Appendix C."""
    return cite_worthy_scores(gold, predicted)["f1"]
