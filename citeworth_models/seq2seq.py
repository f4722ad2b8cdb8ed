"""Sequence-to-sequence summarizers (CiteSum §3-§4): a BART checkpoint fine-tuned on (source, target) pairs.

Only torch, transformers and tokenizers are imported, so the module (and ``benchmarks/seq2seq.py``) runs on a bare
GPU machine. The checkpoint is a local folder (``CITEWORTH_SEQ2SEQ``, e.g. a downloaded ``facebook/bart-large``) or,
without one, a tiny randomly initialised BART built here from the training texts: it exercises every code path in
seconds and its scores mean nothing.

The paper (App. B) gives batch size 8, FP16, checkpoint selection on validation and generation lengths "following
prior work (Zhang et al., 2020)"; it is silent on the rest, so :data:`PAPER_PARAMS` chooses: 5 epochs, AdamW at
3e-5 with 500 warm-up steps, sources truncated to BART's 1,024 positions, targets to 64 tokens, beam search with
8 beams, length penalty 0.8, at least 10 and at most 64 new tokens for a TLDR (after PEGASUS's and BART's extreme
summarization decoding; without a minimum, beam search favours an immediate end), no n-gram block.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import torch

from citeworth_models.training import autocast, batched, seed_everything, train_with_params

TINY = "tiny-random-bart"  # the checkpoint name of the locally built random model
CHECKPOINT_ENV = "CITEWORTH_SEQ2SEQ"
# Prefix tokens of the multi-task settings (§3.1, after Cachola et al. 2020): one per target, before the source.
PREFIXES = {"tldr": "<|TLDR|>", "title": "<|TITLE|>", "discipline": "<|DISCI|>"}
SPECIAL_TOKENS = ["<s>", "<pad>", "</s>", "<unk>", "<mask>"]  # BART's, in BART's id order

PAPER_PARAMS = {
    "batch_size": 8,
    "epochs": 5,
    "lr": 3e-5,
    "weight_decay": 0.01,
    "warmup_steps": 500,
    "seed": 0,
    "max_source_tokens": 1024,
    "max_target_tokens": 64,
    "num_beams": 8,
    "length_penalty": 0.8,
    "max_new_tokens": 64,
    "min_new_tokens": 10,  # TLDRs only; title and discipline rows set 0
    "eval_batch_size": 16,
    "validation_examples": None,  # None: the whole validation split at every epoch
}
# The tiny model: a few seconds on a CPU (tests, the demo); its scores mean nothing.
TINY_PARAMS = {
    **PAPER_PARAMS,
    "epochs": 2,
    "lr": 1e-3,
    "warmup_steps": 0,
    "max_source_tokens": 128,
    "max_target_tokens": 32,
    "num_beams": 2,
    "max_new_tokens": 24,
    "min_new_tokens": 4,
    "validation_examples": 16,
}
TINY_CONFIG = {
    "d_model": 32,
    "encoder_layers": 1,
    "decoder_layers": 1,
    "encoder_attention_heads": 2,
    "decoder_attention_heads": 2,
    "encoder_ffn_dim": 64,
    "decoder_ffn_dim": 64,
    "max_position_embeddings": 1024,
}


def checkpoint_from_environment() -> str | None:
    """The local checkpoint folder named by ``CITEWORTH_SEQ2SEQ`` (None when unset or empty)."""
    return os.environ.get(CHECKPOINT_ENV, "").strip() or None


def build_tiny_bart(texts: Iterable[str], directory, vocab_size: int = 2000, seed: int = 0, **config) -> Path:
    """Write a byte-level BPE tokenizer trained on ``texts`` and a random BartForConditionalGeneration into
    ``directory`` (the layout of a downloaded BART folder); no network."""
    from tokenizers import ByteLevelBPETokenizer
    from transformers import BartConfig, BartForConditionalGeneration, BartTokenizerFast

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    trainer = ByteLevelBPETokenizer()
    trainer.train_from_iterator(
        list(texts), vocab_size=vocab_size, min_frequency=1, special_tokens=SPECIAL_TOKENS, show_progress=False
    )
    trainer.save_model(str(directory))
    # positional: transformers 4 names them vocab_file/merges_file, 5 vocab/merges
    tokenizer = BartTokenizerFast(str(directory / "vocab.json"), str(directory / "merges.txt"))
    tokenizer.save_pretrained(directory)
    seed_everything(seed)
    bart = BartConfig(
        vocab_size=len(tokenizer),
        pad_token_id=tokenizer.pad_token_id,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        decoder_start_token_id=tokenizer.eos_token_id,
        forced_bos_token_id=tokenizer.bos_token_id,
        **{**TINY_CONFIG, **config},
    )
    BartForConditionalGeneration(bart).save_pretrained(directory)
    return directory


def load(checkpoint) -> tuple:
    """Model and tokenizer of a local folder, with the multi-task prefix tokens added (embeddings grown to fit)."""
    from transformers import AutoModelForSeq2SeqLM, AutoTokenizer

    folder = Path(checkpoint)
    if not (folder / "config.json").is_file():
        raise FileNotFoundError(f"seq2seq checkpoint {folder}: no config.json (set {CHECKPOINT_ENV} to a model folder)")
    tokenizer = AutoTokenizer.from_pretrained(folder)
    model = AutoModelForSeq2SeqLM.from_pretrained(folder)
    missing = [token for token in PREFIXES.values() if token not in tokenizer.get_vocab()]
    if missing:
        tokenizer.add_tokens(missing, special_tokens=True)  # never split; skipped when outputs are decoded
    if len(tokenizer) > model.get_input_embeddings().num_embeddings:
        model.resize_token_embeddings(len(tokenizer))
    return model, tokenizer


def save(model, tokenizer, directory) -> Path:
    directory = Path(directory)
    model.save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return directory


def batch_loss(model, tokenizer, pairs: Sequence[tuple[str, str]], params: dict, device) -> torch.Tensor:
    """Token cross-entropy of the targets given the sources (padding ignored)."""
    sources, targets = zip(*pairs)
    inputs = tokenizer(
        list(sources), max_length=params["max_source_tokens"], truncation=True, padding=True, return_tensors="pt"
    )
    labels = tokenizer(
        text_target=list(targets),
        max_length=params["max_target_tokens"],
        truncation=True,
        padding=True,
        return_tensors="pt",
    ).input_ids
    labels[labels == tokenizer.pad_token_id] = -100
    return model(**inputs.to(device), labels=labels.to(device)).loss


def fine_tune(
    model,
    tokenizer,
    train: Sequence[tuple[str, str]],
    validation: Sequence[tuple[str, list[str]]],
    params: dict,
    score: Callable[[list[str], list[list[str]]], float],
    on_epoch: Callable[[int, float], None] | None = None,
) -> list[float]:
    """Fine-tune on (source, target) pairs; after each epoch generate on ``validation`` (source, references) and
    keep the weights of the epoch with the best ``score`` (CiteSum App. B: checkpoint selection on validation).
    ``params`` carries the training hyperparameters and the ``device``/``precision`` of the training_device."""
    device = torch.device(params.get("device", "cpu"))
    seed_everything(params["seed"])
    held_out = list(validation)[: params.get("validation_examples") or None]

    def evaluate() -> float:
        predictions, _ = generate(model, tokenizer, [source for source, _ in held_out], params)
        return score(predictions, [references for _, references in held_out])

    return train_with_params(
        model,
        list(train),
        lambda pairs: batch_loss(model, tokenizer, pairs, params, device),
        params,
        device,
        evaluate=evaluate if held_out else None,
        on_epoch=on_epoch,
    )


def prompt_ids(tokenizer, prompt: str) -> list[int]:
    """The decoder's first ids for a forced opening: BART's start token, its BOS, then the prompt's tokens."""
    config_start = [tokenizer.eos_token_id, tokenizer.bos_token_id]
    return config_start + tokenizer(prompt, add_special_tokens=False).input_ids


@torch.no_grad()
def generate(
    model, tokenizer, sources: Sequence[str], params: dict, prompts: Sequence[str] | None = None
) -> tuple[list[str], dict]:
    """Beam-search outputs for ``sources`` (each may start from a decoder ``prompt``, kept in its output) and the
    throughput: examples and generated tokens per second. Prompts of one token length are decoded together."""
    device = torch.device(params.get("device", "cpu"))
    model.to(device).eval()
    groups: dict[int, list[int]] = {}
    starts = [prompt_ids(tokenizer, prompt) if prompt else None for prompt in prompts or [None] * len(sources)]
    for index, start in enumerate(starts):
        groups.setdefault(len(start) if start else 0, []).append(index)
    outputs: list[str] = [""] * len(sources)
    generated, began = 0, time.perf_counter()
    for length, indices in sorted(groups.items()):
        for batch in batched(indices, params.get("eval_batch_size", 16)):
            inputs = tokenizer(
                [sources[i] for i in batch],
                max_length=params["max_source_tokens"],
                truncation=True,
                padding=True,
                return_tensors="pt",
            ).to(device)
            extra = {}
            if length:
                extra["decoder_input_ids"] = torch.tensor([starts[i] for i in batch], device=device)
            with autocast(device, params.get("precision")):
                ids = model.generate(
                    **inputs,
                    **extra,
                    num_beams=params["num_beams"],
                    length_penalty=params["length_penalty"],
                    max_new_tokens=params["max_new_tokens"],
                    min_new_tokens=params.get("min_new_tokens", 0),
                    early_stopping=True,
                )
            generated += int((ids[:, max(length, 1) :] != tokenizer.pad_token_id).sum())
            for i, text in zip(batch, tokenizer.batch_decode(ids, skip_special_tokens=True)):
                outputs[i] = " ".join(text.split())
    seconds = max(time.perf_counter() - began, 1e-9)
    return outputs, {
        "generation_seconds": seconds,
        "generated_examples_per_second": len(sources) / seconds,
        "generated_tokens_per_second": generated / seconds,
    }
