"""ROUGE-SciQFS greedy augmentation: incremental n-gram counts against the naive rouge-score loop.

Generates papers of ``--sentences`` sentences (Zipf-like vocabulary, 10-40 words a sentence) with a
200-word query and two citing sentences, runs both implementations on each, checks that they select
the same sentences with the same final scores, and prints the times and the speed-up.

    PYTHONPATH=$PWD python benchmarks/sciqfs.py --papers 3 --sentences 500
"""

import argparse
import random
import time


def _paper(rng: random.Random, sentences: int, vocabulary: list[str], weights: list[float]):
    def words(k):
        return " ".join(rng.choices(vocabulary, weights, k=k))

    document = [words(rng.randint(10, 40)).capitalize() + "." for _ in range(sentences)]
    query = words(200)
    return document, query, rng.sample(range(sentences), 2)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--papers", type=int, default=3)
    parser.add_argument("--sentences", type=int, default=500)
    parser.add_argument("--rouge-type", default="rouge2")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()

    from rouge_score import rouge_scorer, scoring, tokenizers  # noqa: F401  (imported once, before any timing)

    from citeworth_assets.lib.sciqfs.augmentation import (
        AugmentationSettings,
        augment,
        augment_naive,
    )

    rng = random.Random(args.seed)
    vocabulary = [f"word{i}" for i in range(2000)]
    weights = [1 / (rank + 1) for rank in range(len(vocabulary))]
    settings = AugmentationSettings(rouge_type=args.rouge_type)
    fast_total = naive_total = 0.0
    for p in range(args.papers):
        document, query, citing = _paper(rng, args.sentences, vocabulary, weights)
        started = time.perf_counter()
        fast = augment(document, query, citing, settings)
        fast_s = time.perf_counter() - started
        started = time.perf_counter()
        naive = augment_naive(document, query, citing, settings)
        naive_s = time.perf_counter() - started
        same = fast.added == naive.added and (fast.precision, fast.recall, fast.fmeasure) == (
            naive.precision,
            naive.recall,
            naive.fmeasure,
        )
        fast_total, naive_total = fast_total + fast_s, naive_total + naive_s
        print(
            f"paper {p}: {args.sentences} sentences, {len(fast.added)} added, identical={same}, "
            f"incremental {fast_s * 1000:.1f} ms, naive {naive_s * 1000:.1f} ms, speed-up {naive_s / fast_s:.1f}x, "
            f"final {args.rouge_type} F1 {fast.fmeasure:.4f}"
        )
        if not same:
            raise SystemExit(f"selections differ: incremental {fast.added}, naive {naive.added}")
    print(f"total: incremental {fast_total:.3f} s, naive {naive_total:.3f} s, speed-up {naive_total / fast_total:.1f}x")


if __name__ == "__main__":
    main()
