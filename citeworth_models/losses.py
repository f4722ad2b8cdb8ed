"""Class-weighted cross-entropy used by every neural model (§5: "the loss ... is weighted")."""

from __future__ import annotations

from collections.abc import Sequence

import torch
import torch.nn.functional as F


def class_weights(labels: Sequence[int], num_classes: int = 2) -> torch.Tensor:
    """Weight n / (num_classes * count_c) per class, so rare cite-worthy sentences count more."""
    labels = list(labels)
    n = len(labels)
    counts = [max(1, labels.count(c)) for c in range(num_classes)]
    return torch.tensor([n / (num_classes * count) for count in counts], dtype=torch.float)


def weighted_cross_entropy(
    logits: torch.Tensor,
    labels: torch.Tensor,
    class_weight: torch.Tensor | None = None,
    sample_weight: torch.Tensor | None = None,
) -> torch.Tensor:
    """Cross-entropy averaged by total weight; class and per-example (PU) weights multiply."""
    losses = F.cross_entropy(logits.float(), labels, reduction="none")
    weights = torch.ones_like(losses)
    if class_weight is not None:
        weights = weights * class_weight.to(logits.device)[labels]
    if sample_weight is not None:
        weights = weights * sample_weight.to(logits.device)
    return (losses * weights).sum() / weights.sum().clamp_min(1e-12)
