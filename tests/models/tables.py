"""Small generated CiteWorth-shaped tables: cite-worthy sentences carry cue phrases so models can learn."""

import random

import pyarrow as pa
import pyarrow.parquet as pq

CUES = [
    "It has been shown that",
    "Previous studies reported that",
    "Earlier work found that",
    "Several groups have proposed that",
    "Prior research demonstrated that",
]
PLAIN = [
    "Here we measure how",
    "In this section we describe how",
    "Our results indicate that",
    "We observed that",
    "Table 2 lists how",
]
SUBJECTS = [
    "the protein level",
    "the thermal conductivity",
    "the error rate",
    "the growth rate",
    "the reaction yield",
    "the market price",
    "the gene expression",
    "the response time",
]
VERBS = ["increases with", "depends on", "decreases under", "varies with", "correlates with"]
OBJECTS = ["temperature", "pressure", "sample size", "the dose", "training time", "the input length"]
FIELDS = ["Biology", "Chemistry", "Computer Science"]
TINY = {"epochs": 3, "batch_size": 16, "lr": 2e-3, "warmup_steps": 0, "max_length": 64, "eval_batch_size": 64}


def make_sentence(rng: random.Random, positive: bool) -> str:
    opener = rng.choice(CUES if positive else PLAIN)
    return f"{opener} {rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)}."


def make_rows(n_paragraphs: int = 60, seed: int = 0) -> list[dict]:
    rng = random.Random(seed)
    rows = []
    for i in range(n_paragraphs):
        split = "train" if i % 6 < 4 else ("dev" if i % 6 == 4 else "test")
        samples = []
        for _ in range(rng.randint(3, 6)):
            positive = rng.random() < 0.35
            samples.append(
                {"text": make_sentence(rng, positive), "label": "check-worthy" if positive else "non-check-worthy"}
            )
        if not any(s["label"] == "check-worthy" for s in samples):
            samples[0] = {"text": make_sentence(rng, True), "label": "check-worthy"}
        rows.append(
            {
                "paper_id": str(1000 + i),
                "section_idx": i % 3,
                "field": FIELDS[(i // 6) % 3],
                "split": split,
                "samples": samples,
            }
        )
    return rows


def write_table(path, rows) -> str:
    pq.write_table(pa.Table.from_pylist(rows), path)
    return str(path)
