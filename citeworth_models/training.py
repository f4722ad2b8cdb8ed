"""Shared plumbing for the neural models: device, seeding, mixed precision, epoch loop.

Every neural baseline in Appendix C is trained the same way (AdamW, triangular
warmup, model selection on dev F1), so the loop lives here once. Where a model trains
(device), in which autocast precision and whether deterministically come in its params
(``device``, ``precision``, ``deterministic``), which the Dagster resource ``training_device``
fills from :func:`resolve_setup`.
"""

from __future__ import annotations

import contextlib
import os
import random
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np
import torch
from transformers import get_linear_schedule_with_warmup

PRECISIONS = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": None}
DEVICE_CHOICES = "'auto', 'cpu', 'cuda' or 'cuda:N'"
CUBLAS_WORKSPACE = ":4096:8"  # what cuBLAS needs to give the same sums on every run (PyTorch's reproducibility notes)


class DeviceError(ValueError):
    """A training device or precision that this machine cannot give; the message names the setting."""


def pick_device(prefer: str | None = None) -> torch.device:
    """CUDA when available, else CPU (or whatever the caller forces). A CUDA device saved with a checkpoint
    trained on a GPU falls back to CPU where CUDA is absent, so the checkpoint still loads and predicts."""
    if prefer:
        device = torch.device(prefer)
        if device.type == "cuda" and not torch.cuda.is_available():
            warnings.warn(f"device {prefer!r} asked for, but CUDA is not available: using the CPU", stacklevel=2)
            return torch.device("cpu")
        return device
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


@dataclass(frozen=True)
class TrainingSetup:
    """Where and how the neural models train: the resolved form of the ``training_device`` resource."""

    device: str  # "cpu" or "cuda:N"
    precision: str  # "bf16", "fp16" or "fp32" (autocast dtype; fp32: no autocast)
    deterministic: bool = False
    memory_fraction: float | None = None  # of the GPU's memory this process may hold
    fallback: str | None = None  # why the setup is not what was asked for (e.g. CPU instead of CUDA)
    cpu_threads: int | None = None  # torch's intra-op threads when training on the CPU

    def params(self) -> dict:
        """The model params that carry the setup into :func:`train_with_params` and prediction."""
        return {"device": self.device, "precision": self.precision, "deterministic": self.deterministic}


def default_cpu_threads() -> int:
    """Half the cores this process may use, at least one: torch's default (every core) spins its threads against
    whatever else runs, and on a busy machine training then slows down many times over."""
    return max(1, len(os.sched_getaffinity(0)) // 2) if hasattr(os, "sched_getaffinity") else 1


def resolve_setup(
    device: str = "auto",
    precision: str = "auto",
    deterministic: bool = False,
    memory_limit: float | None = None,
    cpu_threads: int | None = None,
) -> TrainingSetup:
    """The setup for this machine. ``auto`` is the first GPU if CUDA is present, else the CPU (recorded in
    ``fallback``); an explicit ``cuda``/``cuda:N`` without that GPU is an error, never a silent CPU run.
    Precision ``auto`` is bf16 where the GPU supports it, fp16 on older GPUs, fp32 on CPU. ``memory_limit``
    (GPU only): a fraction of the GPU's memory when at most 1, else GiB."""
    text = (device or "auto").strip().lower()
    fallback = None
    if text == "auto":
        text = "cuda:0" if torch.cuda.is_available() else "cpu"
        fallback = None if torch.cuda.is_available() else "device 'auto': CUDA is not available, training on the CPU"
    elif text == "cuda":
        text = "cuda:0"
    if text != "cpu":
        index = text.removeprefix("cuda:")
        if not text.startswith("cuda:") or not index.isdigit():
            raise DeviceError(f"training device {device!r}: use {DEVICE_CHOICES}")
        if not torch.cuda.is_available():
            raise DeviceError(
                f"training device {device!r}: CUDA is not available on this machine (torch {torch.__version__}, "
                f"CUDA build {torch.version.cuda}); use 'auto' or 'cpu'"
            )
        if int(index) >= torch.cuda.device_count():
            raise DeviceError(f"training device {device!r}: this machine has {torch.cuda.device_count()} GPU(s)")
    on_gpu = text != "cpu"
    chosen = (precision or "auto").strip().lower()
    if chosen == "auto":
        chosen = ("bf16" if torch.cuda.is_bf16_supported() else "fp16") if on_gpu else "fp32"
    if chosen not in PRECISIONS:
        raise DeviceError(f"training precision {precision!r}: use 'auto', {', '.join(map(repr, PRECISIONS))}")
    if chosen == "fp16" and not on_gpu:
        raise DeviceError(
            "training precision 'fp16' needs a GPU (mixed precision on the CPU is bf16); use 'bf16' or 'fp32'"
        )
    if chosen == "bf16" and on_gpu and not torch.cuda.is_bf16_supported():
        raise DeviceError(
            f"training precision 'bf16': {torch.cuda.get_device_name(torch.device(text))} does not support it; "
            "use 'fp16'"
        )
    if cpu_threads is not None and cpu_threads < 1:
        raise DeviceError(f"training CPU threads {cpu_threads}: give at least 1")
    threads = (cpu_threads or default_cpu_threads()) if text == "cpu" else None
    return TrainingSetup(text, chosen, deterministic, _memory_fraction(text, memory_limit), fallback, threads)


def _memory_fraction(device: str, memory_limit: float | None) -> float | None:
    if memory_limit is None:
        return None
    if memory_limit <= 0:
        raise DeviceError(f"training memory limit {memory_limit}: give a fraction in (0, 1] or GiB above 1")
    if device == "cpu":
        return None
    if memory_limit <= 1:
        return float(memory_limit)
    total = torch.cuda.get_device_properties(torch.device(device)).total_memory
    return min(1.0, memory_limit * 2**30 / total)


def apply_setup(setup: TrainingSetup) -> None:
    """The process-wide parts of the setup: the GPU memory cap, the CPU threads."""
    if setup.cpu_threads is not None:
        torch.set_num_threads(setup.cpu_threads)
    if setup.memory_fraction is not None:
        torch.cuda.set_per_process_memory_fraction(setup.memory_fraction, torch.device(setup.device))


def describe_setup(setup: TrainingSetup) -> dict[str, str]:
    """The setup and the libraries it ran with, as strings for asset metadata and MLflow params."""
    import transformers

    description = {
        "device": setup.device,
        "precision": setup.precision,
        "deterministic": str(setup.deterministic),
        "torch_version": torch.__version__,
        "transformers_version": transformers.__version__,
        "cuda_version": str(torch.version.cuda),
    }
    if setup.device == "cpu":
        description["device_name"] = "cpu"
        description["cpu_threads"] = str(setup.cpu_threads or torch.get_num_threads())
    else:
        device = torch.device(setup.device)
        major, minor = torch.cuda.get_device_capability(device)
        description.update(
            device_name=torch.cuda.get_device_name(device),
            compute_capability=f"{major}.{minor}",
            cudnn_version=str(torch.backends.cudnn.version()),
        )
    if setup.memory_fraction is not None:
        description["memory_fraction"] = f"{setup.memory_fraction:.3f}"
    if setup.fallback:
        description["fallback"] = setup.fallback
    return description


@contextlib.contextmanager
def deterministic_algorithms(enabled: bool = True):
    """Deterministic kernels (and cuBLAS workspace) inside the block, the previous settings restored after.
    Operations without a deterministic kernel warn rather than fail."""
    if not enabled:
        yield
        return
    previous = (
        torch.are_deterministic_algorithms_enabled(),
        torch.is_deterministic_algorithms_warn_only_enabled(),
        torch.backends.cudnn.deterministic,
        torch.backends.cudnn.benchmark,
    )
    os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", CUBLAS_WORKSPACE)
    torch.use_deterministic_algorithms(True, warn_only=True)
    torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark = True, False
    try:
        yield
    finally:
        torch.use_deterministic_algorithms(previous[0], warn_only=previous[1])
        torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark = previous[2], previous[3]


def seed_everything(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    if torch.cuda.is_available():
        torch.cuda.manual_seed_all(seed)


def autocast_dtype(device: torch.device, precision: str | None = None) -> torch.dtype | None:
    """The autocast dtype of a precision (``bf16``/``fp16``/``fp32``). Without one (``auto``): bf16 where
    the GPU supports it, else fp16; no autocast on CPU. On the CPU only bf16 autocasts."""
    if precision in (None, "auto"):
        if device.type != "cuda":
            return None
        return torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
    dtype = PRECISIONS[precision]
    if device.type != "cuda" and dtype is not torch.bfloat16:
        return None
    return dtype


def autocast(device: torch.device, precision: str | None = None):
    """Mixed-precision context in the given precision, a no-op for fp32 (and on CPU unless bf16)."""
    dtype = autocast_dtype(device, precision)
    if dtype is None:
        return contextlib.nullcontext()
    return torch.autocast(device_type=device.type, dtype=dtype)


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
    precision: str | None = None,
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
    scaler = torch.amp.GradScaler("cuda", enabled=autocast_dtype(device, precision) == torch.float16)
    dev_f1: list[float] = []
    best_state = None
    for epoch in range(epochs):
        model.train()
        for batch in make_batches(epoch):
            optimizer.zero_grad()
            with autocast(device, precision):
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


def train_with_params(
    network, examples: list, batch_loss, params: dict, device, evaluate=None, on_epoch=None
) -> list[float]:
    """:func:`train_epochs` with a model's Appendix C hyperparameters (``batch_size``, ``epochs``, ``lr``,
    ``weight_decay``, ``warmup_steps``, ``seed``): the examples reshuffled every epoch, seeded; in the
    params' ``precision`` and, with ``deterministic``, with deterministic kernels."""
    with deterministic_algorithms(bool(params.get("deterministic"))):
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
            precision=params.get("precision"),
        )
