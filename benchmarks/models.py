"""Training and inference throughput (sentences/s) of the tiny transformer on this machine (``make bench``).

Trains the from-scratch Transformer encoder and the tiny-BERT sentence classifier for one epoch on
generated cue-word sentences and times training and prediction; uses CUDA when present.
"""

import json
import random
import tempfile
import time
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"
CUES = ["It has been shown that", "Previous studies reported that", "Earlier work found that"]
PLAIN = ["Here we measure how", "We observed that", "Our results indicate that"]
WORDS = [
    "the protein level",
    "the error rate",
    "the growth rate",
    "temperature",
    "pressure",
    "the dose",
    "depends on",
    "varies with",
]


def sentences(n: int, seed: int = 0) -> list[tuple[str, int]]:
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        positive = rng.random() < 0.3
        text = f"{rng.choice(CUES if positive else PLAIN)} {' '.join(rng.choice(WORDS) for _ in range(12))}."
        rows.append((text, int(positive)))
    return rows


def main() -> None:
    from citeworth_models.sentence_classifier import SentenceClassifier
    from citeworth_models.tiny_bert import build_tiny_bert
    from citeworth_models.training import pick_device
    from citeworth_models.transformer_scratch import ScratchTransformerClassifier

    train, dev = sentences(4000), sentences(500, seed=1)
    work = Path(tempfile.mkdtemp(prefix="models-bench-"))
    encoder = build_tiny_bert([t for t, _ in train], work / "tiny_bert")
    params = {"epochs": 1, "batch_size": 32, "max_length": 64}
    report = {"device": str(pick_device()), "train_sentences": len(train)}
    for name, model in (
        ("transformer", ScratchTransformerClassifier(params={**ScratchTransformerClassifier.DEFAULTS, **params})),
        ("tiny_bert", SentenceClassifier(encoder, {**SentenceClassifier.DEFAULTS, **params})),
    ):
        started = time.perf_counter()
        model.fit(train, dev, None)
        training = time.perf_counter() - started
        texts = [t for t, _ in train]
        started = time.perf_counter()
        model.predict(texts)
        inference = time.perf_counter() - started
        report[name] = {
            "train_sentences_per_second": round(len(train) / training, 1),
            "inference_sentences_per_second": round(len(texts) / inference, 1),
        }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "models.json").write_text(json.dumps(report, indent=2))
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
