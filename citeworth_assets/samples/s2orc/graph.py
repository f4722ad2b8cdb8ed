"""Outcomes, paper ids and the citation graph of the synthetic dump.

Each is a cheap pure function of ``(seed, index)``, so any paper can learn these facts about any
other paper without the generator holding the dump in memory.
"""

from __future__ import annotations

import random
from functools import lru_cache

from citeworth_assets.lib.s2orc.candidate_filter import CRITERION_NAMES

# The candidate filter's criteria, in the order they are applied; a paper's rejection reason is
# the first one it fails.
CANDIDATE_CRITERIA: tuple[str, ...] = CRITERION_NAMES
ACCEPTED = "accepted"
_METADATA_CRITERIA = CANDIDATE_CRITERIA[:2]  # decided before the pdf parse is looked at
_PARSED_FLAGS = CANDIDATE_CRITERIA[3:7]  # has_pdf_parsed_abstract .. has_pdf_parsed_ref_entries
_VENUE_OR_ID_KEYS = ("arxiv_id", "acl_id", "pmc_id", "pubmed_id", "venue", "journal")

# One cycle of intended outcomes: 20 accepted papers and 12 rejected ones (62.5 % accepted), every
# criterion at least once, with the variants ("null" versus "empty") the readers must both handle.
# The cycle is shuffled once per seed; 32 is coprime with the 19 fields, so every field meets
# every outcome.
_OUTCOME_CYCLE: tuple[tuple[str, str], ...] = ((ACCEPTED, ""),) * 20 + (
    ("mag_field_of_study", "null"),
    ("mag_field_of_study", "empty"),
    ("has_inbound_citations", ""),
    ("has_pdf_parse", ""),
    ("has_pdf_parse", ""),
    ("has_pdf_parsed_abstract", ""),
    ("has_pdf_parsed_body_text", ""),
    ("has_pdf_parsed_bib_entries", ""),
    ("has_pdf_parsed_ref_entries", ""),
    ("abstract", "null"),
    ("abstract", "empty"),
    ("venue_or_id", ""),
)

# Citation graph: paper i may cite the papers i-1 .. i-_LINK_WINDOW (cyclically), each with odds
# 1/4; so the citers of a paper are found by looking the same window forward.  (<= 63: one mask.)
_LINK_WINDOW = 40

_ID_BASE = 1_000_000  # in-dump paper ids: _ID_BASE + 10 * index + (0..9)
_OUTSIDE_ID_BASE = 300_000_000  # ids of citing papers that are not part of the dump
_MASK64 = (1 << 64) - 1


# ---------------------------------------------------------------------------------------------
# Cheap pure functions of (seed, index): what one paper may know about any other paper.
# ---------------------------------------------------------------------------------------------


def _mix(*values: int) -> int:
    """A fast, well-spread 64-bit hash of integers (splitmix64 steps).

    Used where a ``random.Random`` per call would be too slow, e.g. the citation graph, which is
    probed 2 * _LINK_WINDOW times per paper.
    """
    x = 0x9E3779B97F4A7C15
    for value in values:
        x = ((x ^ (value & _MASK64)) * 0xBF58476D1CE4E5B9) & _MASK64
        x ^= x >> 29
        x = (x * 0x94D049BB133111EB) & _MASK64
        x ^= x >> 32
    return x


def _rng(seed: int, index: int, purpose: str) -> random.Random:
    """A generator private to one paper and one purpose, so purposes do not disturb each other."""
    return random.Random(f"{seed}:{index}:{purpose}")


def _pick(rng: random.Random, options):
    """``rng.choice`` built on ``rng.random()``: several times faster, and just as deterministic;
    the generator makes hundreds of choices per paper."""
    return options[int(rng.random() * len(options))]


def _between(rng: random.Random, low: int, high: int) -> int:
    """An integer in ``[low, high]``, like ``rng.randint`` but cheaper."""
    return low + int(rng.random() * (high - low + 1))


def paper_id_for(seed: int, index: int) -> str:
    """The S2ORC ``paper_id`` (a numeric string) of the paper at ``index``; unique within a dump."""
    return str(_ID_BASE + 10 * index + _mix(seed, index, 0x1D) % 10)


@lru_cache(maxsize=64)
def _outcome_cycle(seed: int) -> tuple[tuple[str, str], ...]:
    cycle = list(_OUTCOME_CYCLE)
    random.Random(f"{seed}:outcome-cycle").shuffle(cycle)
    return tuple(cycle)


def _outcome(seed: int, index: int) -> tuple[str, str]:
    cycle = _outcome_cycle(seed)
    return cycle[index % len(cycle)]


def intended_first_failure(seed: int, index: int) -> str:
    """The candidate-filter criterion this paper is built to fail first, or ``"accepted"``."""
    return _outcome(seed, index)[0]


def is_link_target(seed: int, index: int) -> bool:
    """Whether other papers may cite this one through a linked bibliography entry.

    Only papers with a non-empty abstract (CiteSum compares citation sentences with the cited
    abstract) and with inbound citations allowed (a cited paper has inbound citations) qualify.
    """
    return intended_first_failure(seed, index) not in ("has_inbound_citations", "abstract")


@lru_cache(maxsize=128)
def _citation_mask(seed: int, citing: int) -> int:
    """Bit d is set when paper ``citing`` may cite the paper d places before it (odds 1/4: the
    AND of two independent random bits).  Cached: each mask is probed by 2 * _LINK_WINDOW papers
    that are generated close together."""
    return _mix(seed, citing, 0xC17E) & _mix(seed, citing, 0xC17F)


def _cites(seed: int, citing: int, distance: int) -> bool:
    return (_citation_mask(seed, citing) >> distance) & 1 == 1


def _window(papers: int) -> int:
    return max(0, min(_LINK_WINDOW, papers - 1))


def linked_targets(seed: int, index: int, papers: int) -> list[int]:
    """Indices of the dump papers this paper cites (its linked bib entries / outbound_citations)."""
    return [
        (index - d) % papers
        for d in range(1, _window(papers) + 1)
        if _cites(seed, index, d) and is_link_target(seed, (index - d) % papers)
    ]


def in_dump_citers(seed: int, index: int, papers: int) -> list[int]:
    """Indices of the dump papers that cite this paper: the exact inverse of ``linked_targets``."""
    if not is_link_target(seed, index):
        return []
    return [(index + d) % papers for d in range(1, _window(papers) + 1) if _cites(seed, (index + d) % papers, d)]
