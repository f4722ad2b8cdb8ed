"""Shared plumbing for the neural models: device, seeding, mixed precision, epoch loop.

Every neural baseline in Appendix C is trained the same way (AdamW, triangular
warmup, model selection on dev F1), so the loop lives here once.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Iterable

import numpy as np
import torch
from transformers import get_linear_schedule_with_warmup


def pick_device(prefer: str | None = None) -> torch.device:
    """CUDA when available, else CPU (or whatever the caller forces)."""
    if prefer:
        return torch.device(prefer)
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


def seed_everything(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    if torch.cuda.is_available():
        torch.cuda.manual_seed_all(seed)


def autocast_dtype(device: torch.device) -> torch.dtype | None:
    """bf16 where the GPU supports it, else fp16; no autocast on CPU."""
    if device.type != "cuda":
        return None
    return torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16


def autocast(device: torch.device):
    """Mixed-precision context on CUDA, a no-op elsewhere."""
    dtype = autocast_dtype(device)
    if dtype is None:
        return contextlib.nullcontext()
    return torch.autocast(device_type="cuda", dtype=dtype)


def batched(items: list, batch_size: int, shuffle: bool = False, seed: int = 0) -> list[list]:
    """Split items into batches, optionally in a seeded random order."""
    order = list(range(len(items)))
    if shuffle:
        random.Random(seed).shuffle(order)
    return [[items[i] for i in order[start : start + batch_size]] for start in range(0, len(order), batch_size)]


def train_epochs(
    model: torch.nn.Module,
    make_batches: Callable[[int], Iterable],
    batch_loss: Callable[[object], torch.Tensor],
    *,
    epochs: int,
    lr: float,
    weight_decay: float = 0.0,
    warmup_steps: int = 0,
    device: torch.device,
    evaluate: Callable[[], float] | None = None,
    on_epoch: Callable[[int, float], None] | None = None,
    keep_best: bool = True,
) -> list[float]:
    """AdamW with linear warmup/decay; returns dev F1 after each epoch.

    make_batches(epoch) yields the batches of one epoch; batch_loss(batch)
    runs the forward pass and returns a scalar loss. on_epoch(epoch, f1)
    lets the caller log progress (e.g. to MLflow). With keep_best the
    weights of the best dev epoch are restored, as models were selected on
    validation F1 in the paper.
    """
    model.to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=weight_decay)
    steps_per_epoch = len(list(make_batches(0)))
    scheduler = get_linear_schedule_with_warmup(optimizer, warmup_steps, max(1, steps_per_epoch * epochs))
    scaler = torch.amp.GradScaler("cuda", enabled=autocast_dtype(device) == torch.float16)
    dev_f1: list[float] = []
    best_state = None
    for epoch in range(epochs):
        model.train()
        for batch in make_batches(epoch):
            optimizer.zero_grad()
            with autocast(device):
                loss = batch_loss(batch)
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
            scheduler.step()
        if evaluate is not None:
            model.eval()
            f1 = evaluate()
            if keep_best and (not dev_f1 or f1 > max(dev_f1)):
                best_state = {k: v.detach().cpu().clone() for k, v in model.state_dict().items()}
            dev_f1.append(f1)
            if on_epoch is not None:
                on_epoch(epoch, f1)
    if best_state is not None:
        model.load_state_dict(best_state)
    model.eval()
    return dev_f1


def train_with_params(network, examples: list, batch_loss, params: dict, device, evaluate=None, on_epoch=None) -> list[float]:
    """:func:`train_epochs` with a model's Appendix C hyperparameters (``batch_size``, ``epochs``, ``lr``,
    ``weight_decay``, ``warmup_steps``, ``seed``): the examples reshuffled every epoch, seeded."""
    return train_epochs(
        network,
        lambda epoch: batched(examples, params["batch_size"], shuffle=True, seed=params["seed"] + epoch),
        batch_loss,
        epochs=params["epochs"],
        lr=params["lr"],
        weight_decay=params["weight_decay"],
        warmup_steps=params["warmup_steps"],
        device=device,
        evaluate=evaluate,
        on_epoch=on_epoch,
    )
