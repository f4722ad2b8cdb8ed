"""A deterministic, answerable citation-context CSV (unarXive format) and a small catalogue.

Every cited work gets its own topic words, a noun phrase naming its method or data set, a claim
("<noun phrase> <verb>s <object>") and fields of study; every context that cites it carries some of them
in sentence patterns real papers use (the noun phrase right before the marker, citation groups
``CIT , MAINCIT``, a clause stating the claim, a field named in passing), next to noise sentences and
sentences that cite other works with ``CIT``. So the generator knows the true cited work of each context
(it is the line's cited id) and a model that reads the context can find it. Popularity is Zipf-like, so
candidates are described by many or few contexts as in Figure 9 of Saier 2019. Citing papers get arXiv ids
(old style before 2007, new style after) whose year the evaluation's temporal split reads.
"""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import dataclass
from pathlib import Path

FIELD_SEP, LIST_SEP = "\u241e", "\u241f"

TOPIC_WORDS = (
    "entropy lattice manifold spectrum kernel graph tensor lepton hadron neutrino galaxy plasma photon soliton "
    "boson fermion quasar pulsar genome protein enzyme polymer catalyst alloy crystal magnet superconductor "
    "turbulence vortex diffusion percolation oscillator resonator waveguide antenna channel codec compiler "
    "scheduler cache ledger auction equilibrium portfolio volatility inflation tariff epidemic vaccine cortex "
    "neuron synapse retina cochlea dialect syntax morpheme lexicon ontology taxonomy sensor drone robot "
    "gripper trajectory controller estimator filter wavelet fractal polytope matroid hypergraph automaton "
    "grammar parser encoder decoder transformer embedding attention gradient optimizer regularizer sampler "
    "posterior likelihood bootstrap quantile histogram cluster centroid outlier anomaly forecast reservoir "
    "aquifer glacier monsoon aerosol isotope mineral basalt sediment tectonics"
).split()
ADJECTIVES = (
    "sparse adaptive hierarchical stochastic robust convex spectral variational recurrent residual "
    "probabilistic discrete continuous nonlinear quantum relativistic thermal optical acoustic topological"
).split()
HEADS = "estimator model network algorithm benchmark corpus solver scheme framework method dataset protocol".split()
VERBS = "outperform improve stabilize accelerate generalize reduce approximate reconstruct detect predict".split()
FINE_FIELDS = (
    "Information retrieval",
    "Machine learning",
    "Computer vision",
    "Natural language processing",
    "Quantum field theory",
    "Graph theory",
    "Signal processing",
    "Statistical physics",
    "Number theory",
    "Condensed matter physics",
    "Astrophysics",
    "Econometrics",
    "Genetics",
    "Neuroscience",
)
LEVEL0 = (
    "Computer Science",
    "Physics",
    "Mathematics",
    "Biology",
    "Economics",
    "Engineering",
    "Chemistry",
    "Medicine",
)
NOISE = (
    "results section figure table approach setting case analysis value order number term effect "
    "problem data time work paper study example point form"
).split()


@dataclass(frozen=True)
class CitrecSampleSettings:
    works: int = 80
    citing_papers: int = 240
    works_per_paper: int = 5
    contexts_per_citation: tuple[int, int] = (1, 2)
    first_year: int = 2005
    last_year: int = 2019
    bad_lines: int = 2
    seed: int = 14


@dataclass(frozen=True)
class Work:
    id: str
    topic: tuple[str, str, str]
    phrase: str
    verb: str
    object: str
    fields: tuple[str, str]

    @property
    def title(self) -> str:
        return f"A {self.phrase} for {self.topic[0]} and {self.topic[1]}"


@dataclass(frozen=True)
class CitrecSample:
    contexts_path: Path
    catalogue_path: Path
    contexts: int
    works: tuple[Work, ...]


def _works(rng: random.Random, n: int) -> list[Work]:
    works, used = [], set()
    for i in range(n):
        while True:
            phrase = f"{rng.choice(ADJECTIVES)} {rng.choice(TOPIC_WORDS)} {rng.choice(HEADS)}"
            if phrase not in used:
                used.add(phrase)
                break
        topic = tuple(rng.sample(TOPIC_WORDS, 3))
        obj = f"{rng.choice(ADJECTIVES)} {rng.choice(TOPIC_WORDS)} baselines"
        fields = (LEVEL0[i % len(LEVEL0)], FINE_FIELDS[rng.randrange(len(FINE_FIELDS))])
        works.append(Work(str(2_000_000_000 + i), topic, phrase, rng.choice(VERBS), obj, fields))
    return works


def _arxiv_id(year: int, month: int, number: int) -> str:
    if year < 2007:
        return f"cs/{year % 100:02d}{month:02d}{number % 1000:03d}"
    return f"{year % 100:02d}{month:02d}.{number:05d}"


def _main_sentence(rng: random.Random, work: Work, adjacent: Work | None) -> str:
    t1, t2, t3 = work.topic
    marker = "CIT , MAINCIT" if adjacent is not None else "MAINCIT"
    field = work.fields[rng.randrange(2)]
    patterns = (
        f"The {work.phrase} {marker} has been used for {t1} and {t2} .",
        f"Recent work on {t1} in {field.lower()} shows that the {work.phrase} can {work.verb} {work.object} {marker} .",
        f"We follow the {work.phrase} {marker} to estimate the {t1} of each {t3} .",
        f"In {field.lower()} , the {t2} is often studied with {t1} methods {marker} .",
        f"It has been shown that the {t3} {work.verb}s the {t1} {marker} , which motivates our {t2} analysis .",
        f"This idea goes back to {marker} and was later applied to the {rng.choice(work.topic)} .",
    )
    return rng.choice(patterns)


def _other_sentence(rng: random.Random, other: Work) -> str:
    return rng.choice(
        (
            f"Other approaches rely on {other.topic[0]} and {other.topic[1]} CIT .",
            f"A {other.phrase} CIT was proposed for the same {rng.choice(NOISE)} .",
        )
    )


def _noise_sentence(rng: random.Random) -> str:
    a, b, c = rng.sample(NOISE, 3)
    return f"This {a} gives the {b} of the {c} in FORMULA ."


def write_citrec_sample(directory: str | Path, settings: CitrecSampleSettings = CitrecSampleSettings()) -> CitrecSample:
    """Write ``contexts.csv`` (unarXive format) and ``catalogue.jsonl`` under ``directory``."""
    rng = random.Random(settings.seed)
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    works = _works(rng, settings.works)
    popularity = list(itertools.accumulate(1.0 / (rank + 1) ** 0.6 for rank in range(len(works))))  # Zipf-like
    catalogue = [
        {
            "id": w.id,
            "year": rng.randint(1995, settings.first_year),
            "title": w.title,
            "fields_of_study": list(w.fields),
        }
        for w in works
    ]
    lines: list[str] = []
    for p in range(settings.citing_papers):
        year = settings.first_year + p % (settings.last_year - settings.first_year + 1)
        arxiv = _arxiv_id(year, rng.randint(1, 12), p + 1)
        mag = str(3_000_000_000 + p) if p % 2 else "None"
        citing_id = mag if mag != "None" else f"arXiv:{arxiv}"
        catalogue.append({"id": citing_id, "year": year, "title": f"Citing paper {p}", "fields_of_study": []})
        cited = set()
        while len(cited) < min(settings.works_per_paper, len(works)):
            cited.add(rng.choices(range(len(works)), cum_weights=popularity)[0])
        for index in sorted(cited):
            work = works[index]
            for _ in range(rng.randint(*settings.contexts_per_citation)):
                adjacent = works[rng.randrange(len(works))] if rng.random() < 0.2 else None
                if adjacent is work:
                    adjacent = None
                other = works[rng.randrange(len(works))]
                sentences = [_main_sentence(rng, work, adjacent)]
                sentences.insert(
                    rng.randrange(2), _noise_sentence(rng) if rng.random() < 0.5 else _other_sentence(rng, other)
                )
                adjacent_ids = adjacent.id if adjacent else "None"
                fields = [work.id, adjacent_ids, mag, "None", "None", arxiv, " ".join(sentences)]
                lines.append(FIELD_SEP.join(fields))
    for b in range(settings.bad_lines):  # damaged rows, as real exports have: counted by the reader, never fatal
        lines.insert((b + 1) * len(lines) // (settings.bad_lines + 1), f"None{FIELD_SEP}truncated row {b}")
    contexts_path = directory / "contexts.csv"
    contexts_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    catalogue_path = directory / "catalogue.jsonl"
    catalogue_path.write_text("\n".join(json.dumps(row) for row in catalogue) + "\n", encoding="utf-8")
    return CitrecSample(contexts_path, catalogue_path, len(lines) - settings.bad_lines, tuple(works))
