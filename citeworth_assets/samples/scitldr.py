"""A synthetic sample in SciTLDR's layout (``<dumps>/scitldr/SciTLDR-A/{train,dev,test}.jsonl``), so that the demo
runs CITES's zero-shot and few-shot transfer (CiteSum §4.1, Table 6) end to end without the user's SciTLDR download.

Each line has the fields of the released SciTLDR-A files: ``source`` (the abstract's sentences), ``source_labels``
and ``rouge_scores`` (per sentence), ``paper_id``, ``title`` and ``target`` (the TLDRs: one author-written in train
and dev, up to three in test). The TLDRs are written the way SciTLDR's are, from the authors' point of view ("We
propose ...", "This paper ..."), which is the style gap §4.1's post-processing, prompting and "We" rewriting
address. Faults of real files are kept: a title holding a newline, a test reference repeated, a one-sentence
abstract. The text is generated: scores on this sample say nothing about SciTLDR.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from citeworth_assets.samples.s2orc.vocabulary import _FIELD_VOCAB

SPLITS = {"train": 160, "dev": 16, "test": 32}  # enough training papers for the paper's 128-shot setting
_OPENINGS = ("We propose", "We present", "We introduce", "This paper presents", "We show that")
_CONTRIBUTIONS = (
    "{method} for {topic} that improves {measure} on {objects}",
    "a study of {topic} based on {method} applied to {objects}",
    "how {method} changes {measure} in {objects}",
)
_SENTENCES = (
    "{topic} is a central question for the study of {objects}.",
    "Existing approaches rely on {method}, which limits {measure}.",
    "In this paper, we apply {method} to {objects} and measure {measure}.",
    "Our experiments on {n} {objects} show that {measure} improves by {pct}%.",
    "We release the data and code for {topic}.",
)


def _words(rng: random.Random) -> dict[str, object]:
    vocab = rng.choice(list(_FIELD_VOCAB.values()))
    return {
        "topic": rng.choice(vocab.topics),
        "method": rng.choice(vocab.methods),
        "objects": rng.choice(vocab.objects),
        "measure": rng.choice(vocab.measures),
        "n": rng.randint(12, 900),
        "pct": rng.randint(2, 40),
    }


def _record(rng: random.Random, number: int, references: int) -> dict:
    words = _words(rng)
    source = [sentence.format(**words) for sentence in _SENTENCES[: rng.randint(2, len(_SENTENCES))]]
    if number % 17 == 0:
        source = source[:1]  # a one-sentence abstract
    source = [sentence[0].upper() + sentence[1:] for sentence in source]
    tldrs = [
        f"{rng.choice(_OPENINGS)} {rng.choice(_CONTRIBUTIONS).format(**words)}." for _ in range(max(1, references))
    ]
    if references > 1 and number % 5 == 0:
        tldrs[-1] = tldrs[0]  # SciTLDR's test references are written independently and can coincide
    title = f"{words['method'].capitalize()} for {words['topic']}"
    if number % 11 == 0:
        title = title.replace(" for ", " for\n", 1)  # a title broken across lines, as extracted from PDFs
    labels = [int("we apply" in sentence.lower() or "show that" in sentence.lower()) for sentence in source]
    return {
        "source": source,
        "source_labels": labels,
        "rouge_scores": [round(0.1 + 0.5 * label + rng.random() / 10, 4) for label in labels],
        "paper_id": f"synthetic-scitldr-{number:05d}",
        "target": tldrs,
        "title": title,
    }


def write_scitldr_sample(dumps: Path, seed: int = 0) -> dict[str, int]:
    """Write the sample's three splits under ``dumps/scitldr/SciTLDR-A``; the records written per split."""
    rng = random.Random(f"scitldr-{seed}")
    folder = Path(dumps) / "scitldr" / "SciTLDR-A"
    folder.mkdir(parents=True, exist_ok=True)
    written, number = {}, 0
    for split, size in SPLITS.items():
        lines = []
        for _ in range(size):
            lines.append(json.dumps(_record(rng, number, rng.randint(1, 3) if split == "test" else 1)))
            number += 1
        (folder / f"{split}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        written[split] = size
    return written
