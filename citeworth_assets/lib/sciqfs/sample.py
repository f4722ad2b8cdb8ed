"""A deterministic generated S2ORC-style dump for ROUGE-SciQFS tests and demos.

Records follow the real pdf_parses layout (``body_text`` paragraphs with ``cite_spans`` pointing to
``bib_entries`` with a ``link``), with real-parser patterns: numeric markers (``[3]``) and author-year
markers (``(Smith et al., 2019)``), abbreviations inside sentences ("e.g.", "et al."), empty section
names, unlinked bibliography entries and one span the parser left without a ``ref_id``.

Each cited paper has a topic: its abstract and the sentences citing it share the topic's words, the
other sentences mostly do not, so word-overlap rankers do well above chance, as the paper found.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

_FILLER = [
    "the",
    "of",
    "results",
    "we",
    "method",
    "data",
    "model",
    "approach",
    "section",
    "table",
    "figure",
    "show",
    "using",
    "based",
    "analysis",
    "proposed",
    "study",
    "performance",
    "experiments",
    "evaluation",
    "set",
    "these",
    "our",
    "this",
    "paper",
    "work",
    "values",
]
_SURNAMES = ("Smith", "Garcia", "Chen", "Okafor", "Novak", "Tanaka", "Dubois", "Kumar")


@dataclass(frozen=True)
class SciqfsSampleSettings:
    papers: int = 12
    references: int = 30  # the cited papers' pool, shared by the citing papers
    references_per_paper: int = 5
    paragraphs: int = 6
    sentences_per_paragraph: int = 5
    topic_words: int = 12
    seed: int = 7


def _topic(rng: random.Random, index: int, size: int) -> list[str]:
    return [f"t{index}w{j}{rng.choice('abcdefghij')}" for j in range(size)]


def _sentence(rng: random.Random, words: list[str], topical: int) -> str:
    body = rng.sample(_FILLER, 6) + [rng.choice(words) for _ in range(topical)]
    rng.shuffle(body)
    if rng.random() < 0.3:
        body.insert(2, "e.g.")
    return body[0].capitalize() + " " + " ".join(body[1:])


def generate_dump(settings: SciqfsSampleSettings = SciqfsSampleSettings()) -> tuple[list[dict], dict[str, str]]:
    """(pdf_parses records, cited paper_id -> abstract)."""
    rng = random.Random(settings.seed)
    topics = [_topic(rng, i, settings.topic_words) for i in range(settings.references)]
    cited_ids = [str(900000 + i) for i in range(settings.references)]
    abstracts = {
        cited_ids[i]: " ".join(_sentence(rng, topics[i], 6) + "." for _ in range(3)) for i in range(settings.references)
    }
    records = []
    for p in range(settings.papers):
        chosen = rng.sample(range(settings.references), settings.references_per_paper)
        bib = {}
        for b, i in enumerate(chosen):
            linked = b != len(chosen) - 1 or p % 3  # some papers cite one paper S2ORC did not link
            bib[f"BIBREF{b}"] = {
                "title": f"On topic {i}: a study",
                "authors": [{"first": "A", "middle": [], "last": _SURNAMES[i % len(_SURNAMES)], "suffix": ""}],
                "year": 2000 + i % 20,
                "venue": "",
                "link": cited_ids[i] if linked else None,
            }
        body = []
        for g in range(settings.paragraphs):
            sentences, spans = [], []
            for _ in range(settings.sentences_per_paragraph):
                offset = sum(len(s) + 1 for s in sentences)
                if rng.random() < 0.25:
                    b = rng.randrange(len(chosen))
                    text = _sentence(rng, topics[chosen[b]], 4)
                    if rng.random() < 0.5:
                        marker = f"[{b + 1}]"
                    else:
                        marker = f"({_SURNAMES[chosen[b] % len(_SURNAMES)]} et al., {2000 + chosen[b] % 20})"
                    start = offset + len(text) + 1
                    spans.append({"start": start, "end": start + len(marker), "text": marker, "ref_id": f"BIBREF{b}"})
                    text = f"{text} {marker}."
                else:
                    text = _sentence(rng, topics[rng.randrange(settings.references)], 1) + "."
                sentences.append(text)
            if g == 1 and p % 4 == 0:  # a marker the parser could not resolve
                spans.append({"start": 0, "end": 1, "text": sentences[0][0], "ref_id": None})
            body.append(
                {
                    "section": "" if g == 0 else f"{g}. Section",
                    "text": " ".join(sentences),
                    "cite_spans": spans,
                    "ref_spans": [],
                }
            )
        records.append(
            {
                "paper_id": str(100000 + p),
                "_pdf_hash": "",
                "abstract": [
                    {"section": "Abstract", "text": _sentence(rng, _FILLER, 2) + ".", "cite_spans": [], "ref_spans": []}
                ],
                "body_text": body,
                "bib_entries": bib,
                "ref_entries": {},
            }
        )
    return records, abstracts
