"""Seq2seq training and generation throughput of CiteSum's abstractive models (``make bench``; standalone).

Builds the tiny random BART of :mod:`citeworth_models.seq2seq` from generated abstract/TLDR pairs, trains it one
epoch at two training sizes and generates with beam search, and prints JSON: CPU seconds, wall seconds, peak RSS,
examples/s and tokens/s. Runs with only torch, transformers and tokenizers installed (no Dagster, no DuckDB)::

    python benchmarks/seq2seq.py                      # the CPU, the tiny model
    python benchmarks/seq2seq.py --device cuda        # a GPU machine
    python benchmarks/seq2seq.py --device cuda --shape large --sizes 256 --generate 64   # BART-large's shape

``--shape large`` is a randomly initialised model of BART-large's shape (no download): its measured tokens/s is
what a real BART-large run would see. The report also extrapolates a CiteSum epoch (83,304 pairs of 255 + 23 words,
Table 3) from the measured training tokens/s and the parameter counts (training cost ~ 6 x parameters x tokens):
an estimate, not a run.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, without installing it

CITESUM_TRAIN = 83_304  # CiteSum Table 3: training pairs
CITESUM_TOKENS_PER_PAIR = int((255 + 23) * 1.3)  # words of source + summary; ~1.3 BPE tokens per English word
BART_LARGE_PARAMETERS = 406_000_000  # facebook/bart-large
LARGE_SHAPE = {
    "d_model": 1024,
    "encoder_layers": 12,
    "decoder_layers": 12,
    "encoder_attention_heads": 16,
    "decoder_attention_heads": 16,
    "encoder_ffn_dim": 4096,
    "decoder_ffn_dim": 4096,
}
TOPICS = ["graph neural networks", "spin chains", "ionic liquids", "protein folding", "traffic flow", "light fields"]
VERBS = ["improves", "reduces", "predicts", "explains", "stabilises", "accelerates"]
OBJECTS = ["parsing accuracy", "critical temperature", "calibration error", "sample efficiency", "congestion"]


def pairs(n: int, seed: int = 0) -> list[tuple[str, str]]:
    """Abstract-like sources (about 200 words) and a one-sentence REF-style TLDR that restates one of them."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        sentences = [
            f"We study how {rng.choice(TOPICS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)} in {rng.randint(2, 900)} "
            f"settings, and show that {rng.choice(TOPICS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)}."
            for _ in range(10)
        ]
        key = rng.choice(sentences).removeprefix("We study how ")
        out.append((" ".join(sentences), f"Previous work showed that {key[:-1]} REF."))
    return out


def peak_rss_mib() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def measure(model, tokenizer, train, generate_n, params) -> dict:
    import torch

    from citeworth_models import seq2seq

    device = torch.device(params["device"])
    tokens = sum(
        len(ids)
        for ids in tokenizer([s for s, _ in train], truncation=True, max_length=params["max_source_tokens"])[
            "input_ids"
        ]
    ) + sum(len(ids) for ids in tokenizer(text_target=[t for _, t in train])["input_ids"])
    if device.type == "cuda":
        torch.cuda.synchronize()
    cpu, wall = time.process_time(), time.perf_counter()
    seq2seq.fine_tune(model, tokenizer, train, [], {**params, "epochs": 1}, lambda *_: 0.0)
    if device.type == "cuda":
        torch.cuda.synchronize()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    _, speed = seq2seq.generate(model, tokenizer, [s for s, _ in train[:generate_n]], params)
    return {
        "train_examples": len(train),
        "train_cpu_seconds": round(cpu, 2),
        "train_wall_seconds": round(wall, 2),
        "train_examples_per_second": round(len(train) / wall, 1),
        "train_tokens_per_second": round(tokens / wall, 1),
        "generated_examples": min(generate_n, len(train)),
        "generation_seconds": round(speed["generation_seconds"], 2),
        "generated_examples_per_second": round(speed["generated_examples_per_second"], 2),
        "generated_tokens_per_second": round(speed["generated_tokens_per_second"], 1),
        "peak_rss_mib": peak_rss_mib(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--device", default="cpu", help="cpu, cuda or cuda:N")
    parser.add_argument("--precision", default="auto", help="auto (bf16/fp16 on a GPU, fp32 on the CPU), fp32, ...")
    parser.add_argument("--sizes", type=int, nargs="+", default=[128, 512], help="training pairs per measurement")
    parser.add_argument("--generate", type=int, default=64, help="examples generated per measurement")
    parser.add_argument("--shape", choices=["tiny", "large"], default="tiny", help="the tiny model or BART-large's")
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    args = parser.parse_args()

    import torch

    from citeworth_models import seq2seq
    from citeworth_models.training import resolve_setup

    torch.set_num_threads(args.threads)
    setup = resolve_setup(args.device, args.precision)
    data = pairs(max(args.sizes) + args.generate)
    work = Path(tempfile.mkdtemp(prefix="seq2seq-bench-"))
    started = time.perf_counter()
    shape = LARGE_SHAPE if args.shape == "large" else {}
    folder = seq2seq.build_tiny_bart([t for pair in data for t in pair], work / "bart", **shape)
    built = time.perf_counter() - started
    base = {**seq2seq.TINY_PARAMS, **(seq2seq.PAPER_PARAMS if args.shape == "large" else {}), **setup.params()}
    base["validation_examples"] = 0
    report = {
        "device": setup.device,
        "precision": setup.precision,
        "device_name": torch.cuda.get_device_name(setup.device) if setup.device != "cpu" else "cpu",
        "shape": args.shape,
        "threads": args.threads,
        "build_seconds": round(built, 2),
        "decoding": {key: base[key] for key in ("num_beams", "length_penalty", "min_new_tokens", "max_new_tokens")},
        "runs": [],
    }
    for size in args.sizes:
        model, tokenizer = seq2seq.load(folder)  # the same random start for every size
        report["parameters"] = sum(p.numel() for p in model.parameters())
        report["runs"].append(measure(model, tokenizer, data[:size], args.generate, base))
    rate = report["runs"][-1]["train_tokens_per_second"]
    epoch_tokens = CITESUM_TRAIN * CITESUM_TOKENS_PER_PAIR
    report["estimate"] = {
        "citesum_epoch_tokens": epoch_tokens,
        "this_model_epoch_hours": round(epoch_tokens / rate / 3600, 2),
        "bart_large_epoch_hours_same_flops_per_second": round(
            epoch_tokens / rate * BART_LARGE_PARAMETERS / report["parameters"] / 3600, 1
        ),
        "note": "extrapolated from measured training tokens/s and parameter counts (cost ~ 6 x parameters x tokens); "
        "a small model does not fill a GPU, so from the tiny shape this overestimates; measure --shape large",
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
