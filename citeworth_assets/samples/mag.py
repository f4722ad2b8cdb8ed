"""A seeded catalogue of works and its MAG TSV dump and OpenAlex snapshot.

The works carry the cases the resolver must get right: near-duplicate titles (a title contained in a
longer one, by the same authors: §4.3's errors), a title with a formula, the MAG's noise paper titled
"hep-th" by "He" (paper 2811252340), almost-duplicate records with few citations, old- and new-style
arXiv ids and DOIs. The MAG dump mixes the 2021 column layout with an older, shorter one and, when
``damaged``, adds a line with too few columns, one with invalid UTF-8 and one with a bad id.
"""

from __future__ import annotations

import gzip
import json
import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path

from citeworth_assets.lib.fields import MAG_FIELDS
from citeworth_assets.lib.mag.titles import mag_normalise_title

WORDS = (
    "quantum",
    "lattice",
    "gauge",
    "neural",
    "sparse",
    "random",
    "graph",
    "inflation",
    "entropy",
    "dynamics",
    "scattering",
    "topological",
    "bayesian",
    "spectral",
    "stochastic",
    "boundary",
    "holographic",
    "kernel",
    "convex",
    "learning",
    "networks",
    "models",
    "states",
    "fields",
    "estimation",
    "symmetry",
    "transport",
)
SURNAMES = (
    "Miller",
    "Fellbaum",
    "Eddy",
    "Zhu",
    "Rosset",
    "Hastie",
    "Tibshirani",
    "Limmer",
    "Chandler",
    "Senoguz",
    "Shafi",
    "Kondo",
    "Heinzl",
    "Aaij",
    "Sauli",
    "Nakamura",
    "Okafor",
    "Lindqvist",
    "Moreau",
    "Petrov",
)
FIRST = ("George", "Christiane", "John", "Ji", "Saharon", "Trevor", "Robert", "David", "Vedat", "Qaisar", "Ana", "Li")
FIELDS_OF_STUDY = {field: 90000 + index for index, field in enumerate(MAG_FIELDS)}
NOISE_MAG_ID = 2811252340


@dataclass
class Work:
    mag_id: int
    title: str
    authors: list[str]
    year: int
    citations: int
    doi: str | None = None
    arxiv_id: str | None = None
    fields: list[str] = field(default_factory=list)
    kind: str = "plain"  # plain | longer | shorter | formula | noise | duplicate

    @property
    def openalex_id(self) -> str:
        return f"W{self.mag_id}"


def _title(rng: random.Random) -> str:
    words = rng.sample(WORDS, rng.randint(4, 7))
    return " ".join(words).capitalize()


def _authors(rng: random.Random) -> list[str]:
    return [f"{rng.choice(FIRST)} {rng.choice(SURNAMES)}" for _ in range(rng.randint(1, 3))]


def sample_works(seed: int = 13, count: int = 200) -> list[Work]:
    """``count`` ordinary works plus the special cases, deterministic for a seed."""
    rng = random.Random(seed)
    works: list[Work] = []
    next_id = 3_000_000_000
    for index in range(count):
        title = _title(rng)
        arxiv = None
        if index % 5 == 0:
            archive = rng.choice(("hep-th", "hep-ph", "astro-ph", "quant-ph"))
            arxiv = f"{archive}/{rng.randint(91, 99):02d}{rng.randint(1, 12):02d}{rng.randint(1, 999):03d}"
        elif index % 5 == 1:
            arxiv = f"{rng.randint(10, 19)}{rng.randint(1, 12):02d}.{rng.randint(1, 9999):05d}"
        doi = f"10.1103/physrevd.{rng.randint(10, 99)}.{rng.randint(100000, 999999)}" if index % 4 == 2 else None
        works.append(
            Work(
                next_id,
                title,
                _authors(rng),
                rng.randint(1990, 2017),
                rng.randint(0, 500),
                doi,
                arxiv,
                sorted(rng.sample(MAG_FIELDS[:5] + ("Physics", "Mathematics"), 1)),
            )
        )
        next_id += 1
    # near-duplicates: the shorter title is contained in the longer one, same authors (§4.3 errors 1 and 2)
    for index in range(max(4, count // 25)):
        base = _title(rng)
        authors = _authors(rng)
        works.append(Work(next_id, base, authors, 1976 + index, 900, kind="shorter", fields=["Physics"]))
        works.append(
            Work(next_id + 1, f"{base}: a reappraisal", authors, 1983 + index, 40, kind="longer", fields=["Physics"])
        )
        next_id += 2
    # an almost-duplicate record with few citations beside a well-cited one
    original = works[3]
    works.append(Work(next_id, original.title, list(original.authors), original.year, 1, kind="duplicate"))
    next_id += 1
    works.append(
        Work(next_id, "Search for the B0(s)→η′π0 decay", ["Roel Aaij"], 2017, 12, kind="formula", fields=["Physics"])
    )
    works.append(Work(NOISE_MAG_ID, "hep-th", ["He"], 2000, 0, kind="noise", fields=["Physics"]))
    return works


def _paper_line(work: Work, old_layout: bool) -> str:
    cells = [
        str(work.mag_id),
        "12000",
        work.doi or "",
        "Journal",
        mag_normalise_title(work.title),
        work.title,
        "",
        str(work.year),
        f"{work.year}-01-01",
        "",
        "Publisher",
        "",
        "",
        "",
        "1",
        "2",
        "10",
        "20",
        "5",
        str(work.citations),
        str(work.citations),
        "Phys. Rev. D",
        str(work.mag_id),
        str(work.mag_id),
        "",
        "2016-06-24",
    ]
    return "\t".join(cells[:20] if old_layout else cells)


def write_mag_dump(
    folder: str | Path, works: Iterable[Work], references: list[tuple[int, int]] = (), damaged: bool = True
) -> Path:
    """The six MAG files for ``works`` (read once, so a generator streams); ``references``: (citing, cited) pairs."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    author_ids: dict[str, int] = {}
    with (
        open(folder / "Papers.txt", "w", encoding="utf-8", newline="\n") as papers,
        open(folder / "PaperAuthorAffiliations.txt", "w", encoding="utf-8", newline="\n") as paa,
        open(folder / "PaperFieldsOfStudy.txt", "w", encoding="utf-8", newline="\n") as pfos,
    ):
        for index, work in enumerate(works):
            papers.write(_paper_line(work, old_layout=index % 3 == 1) + "\n")
            for sequence, name in enumerate(work.authors, start=1):
                author = author_ids.setdefault(name, 5_000_000 + len(author_ids))
                paa.write(f"{work.mag_id}\t{author}\t\t{sequence}\t{name}\t\n")
            for name in work.fields:
                pfos.write(f"{work.mag_id}\t{FIELDS_OF_STUDY[name]}\t0.5\n")
    if damaged:
        with open(folder / "Papers.txt", "ab") as papers:
            papers.write(b"4000000001\t1\tbroken\n")  # too few columns
            papers.write(b"4000000002\t1\t\tJournal\tbad \xff bytes\tBad \xff bytes\t\t2001\n")  # invalid UTF-8
            papers.write(b"40000x0003\t1\t\tJournal\tbad id\tBad id\t\t2001\n")  # an id that is no integer
    with open(folder / "Authors.txt", "w", encoding="utf-8", newline="\n") as authors:
        for name, author in author_ids.items():
            authors.write(f"{author}\t1\t{mag_normalise_title(name)}\t{name}\t\t1\t1\t0\t2016-06-24\n")
    with open(folder / "FieldsOfStudy.txt", "w", encoding="utf-8", newline="\n") as fos:
        for name, fos_id in FIELDS_OF_STUDY.items():
            fos.write(f"{fos_id}\t1\t{name.lower()}\t{name}\t\t0\t1\t1\t0\t2016-06-24\n")
        fos.write("95000\t1\tstring theory\tString theory\t\t2\t1\t1\t0\t2016-06-24\n")
    with open(folder / "PaperReferences.txt", "w", encoding="utf-8", newline="\n") as refs:
        refs.writelines(f"{citing}\t{cited}\n" for citing, cited in references)
    return folder


def openalex_record(work: Work, references: list[int] = ()) -> dict:
    return {
        "id": f"https://openalex.org/{work.openalex_id}",
        "doi": f"https://doi.org/{work.doi}" if work.doi else None,
        "title": work.title,
        "display_name": work.title,
        "publication_year": work.year,
        "cited_by_count": work.citations,
        "ids": {"openalex": f"https://openalex.org/{work.openalex_id}", "mag": str(work.mag_id)},
        "authorships": [{"author": {"display_name": name}} for name in work.authors],
        "concepts": [{"display_name": name, "level": 0, "score": 0.5} for name in work.fields],
        "locations": [{"landing_page_url": f"https://arxiv.org/abs/{work.arxiv_id}"}] if work.arxiv_id else [],
        "referenced_works": [f"https://openalex.org/W{cited}" for cited in references],
    }


def write_openalex_snapshot(
    folder: str | Path, works: Iterable[Work], references: list[tuple[int, int]] = (), per_part: int = 100
) -> Path:
    """``works/updated_date=*/part_*.gz`` files, ``per_part`` works each, streaming (``works`` is read once)."""
    folder = Path(folder)
    cited_by: dict[int, list[int]] = {}
    for citing, cited in references:
        cited_by.setdefault(citing, []).append(cited)
    works = iter(works)
    part = 0
    while chunk := list(islice(works, per_part)):
        path = folder / "works" / f"updated_date=2023-0{1 + part % 9}-01" / f"part_{part:03d}.gz"
        part += 1
        path.parent.mkdir(parents=True, exist_ok=True)
        with gzip.open(path, "wt", encoding="utf-8", newline="\n") as out:
            for work in chunk:
                out.write(json.dumps(openalex_record(work, cited_by.get(work.mag_id, []))) + "\n")
    return folder


def write_arxiv_metadata(path: str | Path, works: Iterable[Work]) -> Path:
    """arXiv's metadata snapshot format (``id``, ``title``, ``authors``, ``doi``) for works with an arXiv id."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        for work in works:
            if work.arxiv_id:
                record = {"id": work.arxiv_id, "title": work.title, "authors": ", ".join(work.authors), "doi": work.doi}
                out.write(json.dumps(record) + "\n")
    return path


# --- catalogues at scale (generate-sample-arxiv --works N) ----------------------------------------------------------
CITED_POOL = 50_000  # papers cite the special works and filler works below this index: the same for every N >= it
_ONSETS, _VOWELS, _CODAS = "bcdfghklmnprstvz", "aeiou", ("", "n", "r", "s", "l")


def _vocabulary(size: int = 4000) -> list[str]:
    """Pseudo-words (``kelvar``, ``tosun``...) enough for titles that rarely repeat among millions."""
    words = []
    for a in _ONSETS:
        for b in _VOWELS:
            for c in _ONSETS:
                for d in _VOWELS:
                    for e in _CODAS:
                        words.append(f"{a}{b}{c}{d}{e}")
    return random.Random(7).sample(words, size)


VOCABULARY = _vocabulary()
SCALED_SURNAMES = [w.capitalize() for w in VOCABULARY[:1500]]


def filler_work(seed: int, index: int) -> Work:
    """The ``index``-th ordinary work of a large catalogue, the same whatever the catalogue's size."""
    rng = random.Random(f"{seed}/{index}")
    title = " ".join(rng.sample(VOCABULARY, rng.randint(5, 8))).capitalize()
    authors = [f"{rng.choice(FIRST)} {rng.choice(SCALED_SURNAMES)}" for _ in range(rng.randint(1, 4))]
    doi = f"10.5555/filler.{seed}.{index}" if index % 4 == 2 else None
    fields = [rng.choice(MAG_FIELDS)]
    return Work(1_000_000_000 + index, title, authors, rng.randint(1960, 2020), rng.randint(0, 300), doi, None, fields)


def scaled_works(seed: int, count: int) -> tuple[list[Work], int]:
    """The special sample works (:func:`sample_works`) and how many filler works make ``count`` in all."""
    special = sample_works(seed)
    if count < len(special):
        raise ValueError(f"--works {count}: a catalogue needs at least the {len(special)} special sample works")
    return special, count - len(special)


def iter_filler_works(seed: int, count: int) -> Iterator[Work]:
    for index in range(count):
        yield filler_work(seed, index)
