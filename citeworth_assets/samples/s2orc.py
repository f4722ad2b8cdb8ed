"""A deterministic, streaming generator of a synthetic S2ORC 20200705v1 dump.

Why it exists: the real release is hundreds of gigabytes behind a licence click-through, yet the
platform's readers, candidate filter and the CiteWorth / CiteSum dataset rules have to be exercised
end to end in tests, demos and benchmarks.  This module writes a small (or, for benchmarks, large)
release that has the real on-disk layout and record schemas, and whose text deliberately contains
the cases those rules must accept or reject.

Design rules, and why:

* Only the standard library, so the generator runs before (and without) the heavy dependencies.
* Streaming: papers are generated and written one at a time.  Anything a paper needs to know about
  another paper (its id, title, authors, year, abstract, whether it may be cited) is a cheap pure
  function of ``(seed, index)``, so memory does not grow with the number of papers.
* Determinism: every random choice comes from a ``random.Random`` seeded by a string built from
  ``(seed, index, purpose)`` or from an integer mix of them; never the global generator or
  ``hash()``.  Gzip members are written with ``mtime=0`` and an empty file name, so the same seed
  gives byte-identical files.
* Atomic files: each shard is written under a temporary name in its final folder and renamed into
  place when complete, pdf_parses before metadata, so a watcher never sees half a shard.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import random
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

__all__ = [
    "ACCEPTED",
    "CANDIDATE_CRITERIA",
    "MAG_FIELDS",
    "abstract_for",
    "generate_sample_dump",
    "in_dump_citers",
    "intended_first_failure",
    "is_link_target",
    "linked_targets",
    "paper_id_for",
]

from citeworth_assets.lib.fields import MAG_FIELDS  # noqa: E402  (the 19 level-0 fields)

# The candidate filter's criteria, in the order they are applied; a paper's rejection reason is
# the first one it fails.
CANDIDATE_CRITERIA: tuple[str, ...] = (
    "mag_field_of_study",
    "has_inbound_citations",
    "has_pdf_parse",
    "has_pdf_parsed_abstract",
    "has_pdf_parsed_body_text",
    "has_pdf_parsed_bib_entries",
    "has_pdf_parsed_ref_entries",
    "abstract",
    "venue_or_id",
)
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
    return [
        (index + d) % papers
        for d in range(1, _window(papers) + 1)
        if _cites(seed, (index + d) % papers, d)
    ]


# ---------------------------------------------------------------------------------------------
# Vocabulary: field-specific words so that text looks like it belongs to its MAG field.
# ---------------------------------------------------------------------------------------------


class _Vocab(NamedTuple):
    topics: tuple[str, ...]
    methods: tuple[str, ...]
    objects: tuple[str, ...]
    measures: tuple[str, ...]


def _vocab(topics: str, methods: str, objects: str, measures: str) -> _Vocab:
    return _Vocab(*(tuple(part.split("|")) for part in (topics, methods, objects, measures)))


_FIELD_VOCAB: dict[str, _Vocab] = {
    "Art": _vocab(
        "Renaissance portraiture|colour theory in painting|museum curation|public sculpture|the reception of modernist art|visual narrative",
        "iconographic analysis|pigment spectroscopy|provenance research|archival study|formal analysis",
        "altarpieces|oil paintings|bronze statues|woodcut prints|gallery visitors|exhibition catalogues",
        "stylistic similarity|attribution confidence|pigment composition|visitor dwell time|auction price",
    ),
    "Biology": _vocab(
        "gene regulation|cell fate specification|photoreceptor development|microbial ecology|protein folding|circadian rhythms",
        "RNA sequencing|confocal microscopy|CRISPR knockout screens|phylogenetic inference|flow cytometry",
        "Drosophila larvae|zebrafish embryos|soil bacteria|α-tubulin mutants|yeast strains|mouse fibroblasts",
        "expression level|survival rate|growth rate|binding affinity|mutation frequency",
    ),
    "Business": _vocab(
        "supply chain resilience|corporate governance|customer loyalty|venture financing|organizational learning|brand management",
        "structural equation modelling|case study research|survey analysis|event study methodology|panel regression",
        "small firms|retail chains|family businesses|start-up companies|franchise networks|service employees",
        "return on assets|customer satisfaction|employee turnover|market share|inventory cost",
    ),
    "Chemistry": _vocab(
        "catalytic oxidation|host–guest chemistry|polymer synthesis|electrochemical sensing|photocatalysis|solvent effects",
        "NMR spectroscopy|density functional theory|cyclic voltammetry|mass spectrometry|X-ray crystallography",
        "β-cyclodextrin complexes|palladium catalysts|ionic liquids|aromatic amines|metal–organic frameworks|aqueous solutions",
        "reaction yield|binding constant|selectivity|activation energy|turnover frequency",
    ),
    "Computer Science": _vocab(
        "neural machine translation|distributed consensus|graph partitioning|citation recommendation|program synthesis|image segmentation",
        "transformer models|stochastic gradient descent|dynamic programming|reinforcement learning|Markov decision processes",
        "benchmark datasets|sparse graphs|source code repositories|scientific documents|sensor networks|user queries",
        "F1 score|query latency|memory footprint|classification accuracy|throughput",
    ),
    "Economics": _vocab(
        "labour market dynamics|monetary policy|income inequality|trade liberalization|housing prices|household consumption",
        "difference-in-differences estimation|vector autoregression|instrumental variable regression|general equilibrium modelling|quantile regression",
        "regional labour markets|emerging economies|household surveys|central banks|manufacturing firms|commodity markets",
        "real wage growth|inflation rate|unemployment rate|price elasticity|GDP per capita",
    ),
    "Engineering": _vocab(
        "structural health monitoring|heat exchanger design|vehicle dynamics|power system stability|additive manufacturing|fatigue of welded joints",
        "finite element analysis|model predictive control|modal testing|computational fluid dynamics|Kalman filtering",
        "steel bridges|wind turbine blades|lithium-ion batteries|gas turbines|reinforced concrete beams|μm-scale actuators",
        "fatigue life|pressure drop|thermal efficiency|natural frequency|peak stress",
    ),
    "Environmental Science": _vocab(
        "nitrogen deposition|urban air quality|wetland restoration|microplastic pollution|carbon sequestration|drought impacts",
        "remote sensing|life cycle assessment|isotope tracing|species distribution modelling|passive sampling",
        "agricultural soils|river catchments|coastal sediments|forest plots|urban monitoring stations|groundwater wells",
        "PM2.5 concentration|nitrate leaching|soil organic carbon|species richness|CO₂ flux",
    ),
    "Geography": _vocab(
        "urban sprawl|rural migration|landscape change|spatial accessibility|tourism geography|border regions",
        "GIS overlay analysis|spatial autocorrelation analysis|participatory mapping|geographically weighted regression|census analysis",
        "metropolitan areas|mountain villages|coastal cities|administrative districts|land parcels|commuting flows",
        "population density|travel time|land use change|accessibility index|settlement growth",
    ),
    "Geology": _vocab(
        "fault zone evolution|sediment transport|magma differentiation|groundwater recharge|glacial erosion|plate boundary deformation",
        "U–Pb zircon dating|seismic reflection profiling|geochemical modelling|borehole logging|thin-section petrography",
        "granitic plutons|sandstone reservoirs|volcanic ash layers|fault gouge samples|carbonate platforms|alluvial fans",
        "slip rate|porosity|crystallization age|grain size|uplift rate",
    ),
    "History": _vocab(
        "colonial administration|medieval trade networks|early modern medicine|labour movements|wartime propaganda|religious reform",
        "archival research|prosopographical analysis|oral history interviews|comparative historical analysis|close reading of sources",
        "parish registers|merchant letters|court records|newspaper archives|diplomatic correspondence|municipal accounts",
        "literacy rate|trade volume|mortality|population size|tax revenue",
    ),
    "Materials Science": _vocab(
        "thin film growth|corrosion resistance|grain boundary engineering|polymer nanocomposites|ceramic sintering|battery cathode degradation",
        "X-ray diffraction|transmission electron microscopy|nanoindentation|atomic force microscopy|molecular dynamics simulation",
        "TiO₂ nanoparticles|aluminium alloys|graphene sheets|perovskite films|carbon fibre laminates|high-entropy alloys",
        "tensile strength|band gap|grain size|fracture toughness|electrical conductivity",
    ),
    "Mathematics": _vocab(
        "robust optimization|spectral graph theory|stochastic differential equations|algebraic topology|numerical integration|convex analysis",
        "variational methods|Monte Carlo sampling|spectral decomposition|fixed-point iteration|duality arguments",
        "compact manifolds|random matrices|convex polytopes|Banach spaces|finite groups|sparse linear systems",
        "convergence rate|approximation error|spectral gap|computational complexity|condition number",
    ),
    "Medicine": _vocab(
        "type 2 diabetes|postoperative infection|hypertension management|antimicrobial resistance|early cancer detection|paediatric asthma",
        "randomized controlled trials|Cox proportional hazards models|retrospective cohort analysis|meta-analysis|propensity score matching",
        "hospitalized patients|primary care practices|elderly adults|intensive care units|fetal ultrasound scans|tumour biopsies",
        "30-day mortality|HbA1c level|length of stay|readmission rate|blood pressure",
    ),
    "Philosophy": _vocab(
        "moral responsibility|the philosophy of mind|epistemic justification|political legitimacy|scientific realism|personal identity",
        "conceptual analysis|thought experiments|formal logic|historical reconstruction|reflective equilibrium",
        "moral intuitions|counterfactual conditionals|scientific theories|normative claims|Kantian arguments|testimonial beliefs",
        "coherence|explanatory power|degree of belief|logical consistency|argumentative strength",
    ),
    "Physics": _vocab(
        "quantum entanglement|superconductivity|gravitational waves|plasma turbulence|topological insulators|neutrino oscillations",
        "Monte Carlo simulation|density matrix renormalization|perturbation theory|laser spectroscopy|lattice QCD",
        "cold atom lattices|spin chains|tokamak plasmas|Δ-resonance states|thin superconducting films|photonic crystals",
        "critical temperature|coherence time|scattering cross section|energy resolution|magnetic susceptibility",
    ),
    "Political Science": _vocab(
        "electoral competition|coalition formation|public opinion|democratic backsliding|legislative behaviour|international cooperation",
        "survey experiments|roll-call analysis|process tracing|multilevel regression|text-as-data methods",
        "national parliaments|party manifestos|voters|municipal governments|international organizations|protest movements",
        "voter turnout|vote share|trust in government|policy responsiveness|ideological polarization",
    ),
    "Psychology": _vocab(
        "working memory|emotion regulation|cognitive development|social anxiety|decision making under risk|visual attention",
        "functional MRI|eye tracking|longitudinal surveys|reaction time experiments|structured clinical interviews",
        "undergraduate participants|preschool children|older adults|clinical samples|twin pairs|online respondents",
        "recall accuracy|reaction time|anxiety scores|effect size|attention span",
    ),
    "Sociology": _vocab(
        "social mobility|gender inequality|neighbourhood effects|migration networks|civic participation|educational attainment",
        "ethnographic fieldwork|social network analysis|life-course analysis|qualitative interviews|event history analysis",
        "urban neighbourhoods|immigrant families|secondary schools|labour unions|online communities|young adults",
        "occupational status|social trust|dropout rate|network density|income mobility",
    ),
}

_FIRST_NAMES = (
    "Anna", "Wei", "Carlos", "Priya", "Jonas", "Fatima", "Kenji", "Olga", "Mehmet", "Laura",
    "Tomás", "Yuki", "Ngozi", "Pierre", "Sofia", "Raj", "Ewa", "Hamid", "Ingrid", "Luca",
    "S. G.", "J.", "Fu-Jian", "Zoë",
)
_LAST_NAMES = (
    "Smith", "Jones", "Lee", "Kim", "Wang", "Müller", "García", "Nguyen", "O'Neill",
    "Mikeladze-Dvali", "Wernet", "Desplan", "Kowalski", "Rossi", "Tanaka", "Okafor", "Brown",
    "Zhou", "Novák", "Johansson", "Ahmed", "Dubois", "Papadopoulos", "van der Berg", "Silva",
    "Ivanova", "Chen", "Park", "Fischer", "Haddad",
)
_MIDDLE_INITIALS = ("A", "B", "C", "D", "E", "J", "K", "L", "M", "P", "R")


# ---------------------------------------------------------------------------------------------
# Who a paper is: fields, title, authors, year, citation style (needed by papers that cite it).
# ---------------------------------------------------------------------------------------------


class _Identity(NamedTuple):
    fields: tuple[str, ...]  # the paper's MAG fields (shown unless it fails mag_field_of_study)
    title: str
    authors: tuple[tuple[str, tuple[str, ...], str, str], ...]  # (first, middle, last, suffix)
    year: int | None
    style: str  # citation style of its own text: numeric, author_year or superscript


@lru_cache(maxsize=64)
def _field_cycle(seed: int) -> tuple[str, ...]:
    fields = list(MAG_FIELDS)
    random.Random(f"{seed}:field-cycle").shuffle(fields)
    return tuple(fields)


_TITLE_TEMPLATES = (
    "{Method} for {topic} in {object}",
    "On the role of {object} in {topic}",
    "{Measure} and {topic}: evidence from {object}",
    "A study of {topic} using {method}",
    "Effects of {object} on {measure}",
    "Towards a better understanding of {topic}",
)


def _capitalize(text: str) -> str:
    return text[:1].upper() + text[1:]


@lru_cache(maxsize=128)
def _identity(seed: int, index: int) -> _Identity:
    """The paper's bibliographic identity; cached because ~10 papers cite each paper nearby."""
    rng = _rng(seed, index, "identity")
    cycle = _field_cycle(seed)
    fields = [cycle[index % len(cycle)]]  # a cycle guarantees every field in any 19 papers
    if rng.random() < 0.15:  # multi-field papers, as in the real sample (~12 %)
        others = [f for f in MAG_FIELDS if f != fields[0]]
        fields += rng.sample(others, _pick(rng, (1, 1, 2)))
    vocab = _FIELD_VOCAB[fields[0]]
    method, measure = _pick(rng, vocab.methods), _pick(rng, vocab.measures)
    title = _pick(rng, _TITLE_TEMPLATES).format(
        Method=_capitalize(method), Measure=_capitalize(measure), topic=_pick(rng, vocab.topics),
        object=_pick(rng, vocab.objects), method=method, measure=measure,
    )
    if rng.random() < 0.015:  # PDF-extracted titles sometimes have text glued on
        title += _pick(rng, (" Journal of Applied Research 12(3)", " 1 Introduction", " Running title: preprint"))
    authors = tuple(_random_author(rng) for _ in range(_pick(rng, (1, 2, 2, 3, 3, 4, 5, 6, 8))))
    year = None if rng.random() < 0.015 else int(rng.triangular(1965, 2020.99, 2016))
    style = rng.choices(("numeric", "author_year", "superscript"), (47, 47, 6))[0]
    return _Identity(tuple(fields), title, authors, year, style)


def _random_author(rng: random.Random) -> tuple[str, tuple[str, ...], str, str]:
    first = "" if rng.random() < 0.01 else _pick(rng, _FIRST_NAMES)  # real dumps have empty first names
    middle = (_pick(rng, _MIDDLE_INITIALS),) if rng.random() < 0.25 else ()
    suffix = "Jr." if rng.random() < 0.01 else ""
    return first, middle, _pick(rng, _LAST_NAMES), suffix


def _author_record(author: tuple[str, tuple[str, ...], str, str]) -> dict:
    first, middle, last, suffix = author
    return {"first": first, "middle": list(middle), "last": last, "suffix": suffix}


def _author_year_label(authors, year: int | None, suffix: str = "") -> tuple[str, str]:
    """("Smith et al.", "2019a") as an author-year citation shows a work."""
    lasts = [a[2] for a in authors]
    if len(lasts) == 1:
        names = lasts[0]
    elif len(lasts) == 2:
        names = f"{lasts[0]} and {lasts[1]}"
    else:
        names = f"{lasts[0]} et al."
    return names, ("n.d." if year is None else f"{year}{suffix}")


# ---------------------------------------------------------------------------------------------
# Abstracts: derivable from the index alone, so a citing paper can paraphrase its cited abstract.
# ---------------------------------------------------------------------------------------------

# (lead, claim clause, how a citing sentence reports it): the clause is what a citing sentence
# may copy (CiteSum's ROUGE filter); "that" clauses are findings ("X showed that ..."), "proposal"
# clauses are noun phrases ("X proposed ..."), "passive" clauses are full clauses ("In X, ...").
_ABSTRACT_SENTENCES = (
    ("We show that", "the choice of {object} strongly affects {measure} in {topic}", "that"),
    ("We propose", "a new {method} procedure for the analysis of {object}", "proposal"),
    ("Our results demonstrate that", "the use of {method} improves estimates of {measure} by {pct}%", "that"),
    ("In this study,", "a sample of {n} {object} was analysed with {method}", "passive"),
    ("We find that", "{measure} is closely linked to {topic} across {object}", "that"),
    ("These findings suggest that", "{topic} should be considered whenever {object} are studied", "that"),
    ("Finally, we argue that", "the use of {method} provides a reliable basis for {topic}", "that"),
    ("Moreover,", "the {measure} of {object} depends on the choice of {method}", "that"),
)


class _Abstract(NamedTuple):
    sentences: tuple[str, ...]
    claims: tuple[tuple[str, str], ...]  # (copyable clause, reporting form), without leads or citations


@lru_cache(maxsize=128)
def _abstract_parts(seed: int, index: int) -> _Abstract:
    ident = _identity(seed, index)
    vocab = _FIELD_VOCAB[ident.fields[0]]
    rng = _rng(seed, index, "abstract")
    topic, obj = _pick(rng, vocab.topics), _pick(rng, vocab.objects)
    sentences = [f"This paper examines {topic} in {obj}."]
    claims = []
    for lead, clause, form in rng.sample(_ABSTRACT_SENTENCES, _between(rng, 2, 5)):
        text = clause.format(
            object=_pick(rng, vocab.objects), measure=_pick(rng, vocab.measures),
            topic=_pick(rng, vocab.topics), method=_pick(rng, vocab.methods),
            n=_between(rng, 12, 480), pct=_between(rng, 3, 65),
        )
        claims.append((text, form))
        sentences.append(f"{lead} {text}.")
    if ident.style == "numeric" and len(sentences) < 6 and rng.random() < 0.08:  # abstracts that cite, like 18980380
        sentences.insert(1, f"In particular, we generalize a previous study [1] of {topic}.")
    return _Abstract(tuple(sentences), tuple(claims))


def _abstract_text(seed: int, index: int) -> str:
    return " ".join(_abstract_parts(seed, index).sentences)


def abstract_for(seed: int, index: int) -> str | None:
    """The metadata ``abstract`` of the paper at ``index``: text, or null / "" for papers built to
    fail the abstract criterion (their pdf parse still carries the parsed abstract)."""
    reason, variant = _outcome(seed, index)
    if reason == "abstract":
        return None if variant == "null" else ""
    return _abstract_text(seed, index)


# ---------------------------------------------------------------------------------------------
# Sentence material.  Cite-worthy claims lean on cue phrases ("has been shown", "previous
# studies", "was reported", "widely used") so that a classifier can learn them; the paper's own
# statements lean on "we", "our", "this study", tables and numbers.
# ---------------------------------------------------------------------------------------------

_CLAIMS = (
    "It has been shown that the type of {object} strongly influences {measure}",
    "Previous studies have reported a close link between {topic} and {measure}",
    "The use of {method} is widely established for the study of {topic}",
    "Earlier work found that {measure} varies considerably across {object}",
    "A decline in {measure} was reported in several cohorts of {object}",
    "Many previous studies have relied on {method} to characterize {object}",
    "Several groups have proposed {method} as a standard approach to {topic}",
    "It is well known that {topic} depends on the properties of {object}",
    "Similar effects of {object} on {measure} were reported in earlier surveys",
    "This approach has been widely used in research on {topic}",
    "Recent reviews have summarized the available evidence on {topic}",
    "Comparable values of {measure} have been observed in previous experiments",
    "Prior research has demonstrated the value of {method} for {topic}",
    "The relation between {object} and {measure} has been studied extensively",
)

_OWN_STATEMENTS = (
    "In this study, we apply {method} to {object}",
    "We collected data on {n} {object} for the present analysis",
    "Our results indicate that {measure} increased by {pct}% after the intervention",
    "The {measure} of each sample was recorded twice by independent observers",
    "Here we examine how {topic} changes when the {object} are varied",
    "All {object} were analysed with the same {method} protocol",
    "The remaining {n} cases were excluded from the final analysis",
    "We therefore restrict our attention to {topic} in {object}",
    "These observations suggest that {measure} is sensitive to the {object}",
    "The differences between the groups were small but consistent",
    "This section describes our data and the procedure in detail",
    "In our experiments the {measure} remained stable over {n} repetitions",
    "Samples were kept in sealed metal containers at 4\u00a0°C until use",
    "The fetal and adult groups of {object} were analysed separately",
    "Measurements were repeated over a range of 10–20 cycles for all {object}",
    "The significance level was set to α\u00a0=\u00a00.05 for all comparisons",
    "We report the median {measure} together with its interquartile range",
)

_OWN_WITH_TABLE = (
    "Table {t} summarizes the {measure} values for every group",
    "The {measure} values of all {object} are listed in Table {t}",
)
_OWN_WITH_FIGURE = (
    "Figure {f} shows the distribution of {measure} across the {object}",
    "The resulting {measure} is plotted for each group in Figure {f}",
)

_CONTINUATIONS = (
    "the {measure} of the {object} remained stable during the study",
    "our analysis of {object} relies on the same assumptions",
)

# The parts of a paper, as roles; each role has title variants (numbered, upper-case, plural,
# with a colon ...) that a section-title normaliser must cope with, and an appetite for citations.
_SECTION_TITLES: dict[str, tuple[str, ...]] = {
    "introduction": ("Introduction", "1 Introduction", "1. Introduction", "I. INTRODUCTION", "INTRODUCTION",
                     "Introduction:"),
    "related": ("Related Work", "2 Related Work", "II. RELATED WORK", "RELATED WORKS", "Background",
                "Literature Review", "2. Related work"),
    "methods": ("Methods", "Methods:", "3 Methods", "Methodology", "Materials and Methods", "Material and methods",
                "Experimental Design", "Proposed Method", "METHODS"),
    "results": ("Results", "4 Results", "RESULTS AND DISCUSSION", "Experiments and Results", "Evaluation",
                "Analysis", "Experimental Results"),
    "discussion": ("Discussion", "5 Discussion", "Discussions", "DISCUSSION", "Discussion and Conclusions"),
    "conclusion": ("Conclusion", "Conclusions", "6 Conclusions and Future Work", "CONCLUSION", "Future Work",
                   "Limitations"),
    # not in CiteWorth's list of permissible titles
    "other": ("Materials", "Proof of Theorem 2", "Study area", "Statistical analysis", "Appendix A",
              "Data availability"),
    "acknowledgments": ("Acknowledgments", "Acknowledgements", "ACKNOWLEDGMENTS", "Funding"),
}
_CITE_APPETITE = {
    "introduction": 0.55, "related": 0.7, "methods": 0.3, "results": 0.2, "discussion": 0.4,
    "conclusion": 0.15, "other": 0.25, "acknowledgments": 0.0, "untitled": 0.35,
}

# Paragraph kinds: "clean" paragraphs satisfy every CiteWorth check; each other kind plants one
# defect that a faithful implementation must reject (or, for the splitter stress kinds, survive).
_PARAGRAPH_KINDS = (
    ("clean", 52),
    ("inline_citation", 7),
    ("mid_sentence_citation", 6),
    ("hanging_citation", 6),
    ("missed_citation", 5),
    ("lowercase_start", 4),
    ("missing_final_period", 4),
    ("short_sentence", 4),
    ("crossing_citation", 3),
    ("too_few_sentences", 5),
    ("equation", 3),
    ("bracketed_decimal", 3),
    ("abbreviations", 5),
)
_KIND_NAMES = tuple(name for name, _ in _PARAGRAPH_KINDS)
_KIND_WEIGHTS = tuple(weight for _, weight in _PARAGRAPH_KINDS)


class _Paragraph:
    """Builds one paragraph's text while recording span offsets (code-point indices)."""

    __slots__ = ("parts", "pos", "cite_spans", "ref_spans")

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.pos = 0
        self.cite_spans: list[dict] = []
        self.ref_spans: list[dict] = []

    def add(self, text: str) -> None:
        self.parts.append(text)
        self.pos += len(text)

    def cite(self, text: str, ref_id: str | None) -> None:
        self.cite_spans.append({"start": self.pos, "end": self.pos + len(text), "text": text, "ref_id": ref_id})
        self.add(text)

    def ref(self, text: str, ref_id: str | None) -> None:
        self.ref_spans.append({"start": self.pos, "end": self.pos + len(text), "text": text, "ref_id": ref_id})
        self.add(text)

    def record(self, section: str) -> dict:
        return {"section": section, "text": "".join(self.parts), "cite_spans": self.cite_spans, "ref_spans": self.ref_spans}


class _Slots(dict):
    """Template slots drawn lazily, so a template pays only for the words it uses."""

    __slots__ = ("writer",)

    def __init__(self, writer: "_PaperWriter") -> None:
        super().__init__()
        self.writer = writer

    def __missing__(self, key: str):
        w = self.writer
        rng, vocab = w.rng, w.vocab
        if key == "topic":
            return _pick(rng, vocab.topics)
        if key == "method":
            return _pick(rng, vocab.methods)
        if key == "object":
            return _pick(rng, vocab.objects)
        if key == "measure":
            return _pick(rng, vocab.measures)
        if key == "n":
            return _between(rng, 12, 480)
        if key == "pct":
            return _between(rng, 3, 65)
        if key == "t":
            return _between(rng, 1, w.n_tables)
        if key == "f":
            return _between(rng, 1, w.n_figures)
        raise KeyError(key)


class _BibItem(NamedTuple):
    ref_id: str  # BIBREFn
    number: int  # n + 1, as a numeric citation shows it
    names: str  # "Smith et al." as an author-year citation shows it
    year: str  # "2019a" or "n.d."
    target: int | None  # index of the linked dump paper, or None


# ---------------------------------------------------------------------------------------------
# One paper: metadata record, pdf_parses record, and the text that exercises the dataset rules.
# ---------------------------------------------------------------------------------------------


class _PaperWriter:
    """Generates the records of one paper; discarded after the paper is written."""

    def __init__(self, seed: int, index: int, papers: int) -> None:
        self.seed, self.index, self.papers = seed, index, papers
        self.reason, self.variant = _outcome(seed, index)
        self.ident = _identity(seed, index)
        self.vocab = _FIELD_VOCAB[self.ident.fields[0]]
        self.rng = _rng(seed, index, "paper")
        self.targets = linked_targets(seed, index, papers)
        self.flags = self._pdf_flags()
        self.style = self.ident.style
        self.paragraph_kinds: Counter = Counter()

    # -- metadata ----------------------------------------------------------------------------

    def _pdf_flags(self) -> dict | None:
        """The has_pdf_parsed_* flags, or None when the paper has no pdf parse.

        The intended failure is false and the criteria before it pass; papers that already fail
        a metadata criterion get random flags (and sometimes no parse), as in the real sample.
        """
        rng, reason = self.rng, self.reason
        if reason == "has_pdf_parse" or (reason in _METADATA_CRITERIA and rng.random() < 0.3):
            return None
        flags = dict.fromkeys(_PARSED_FLAGS, True)
        if reason in _PARSED_FLAGS:
            flags[reason] = False
        elif reason in _METADATA_CRITERIA:
            for name in flags:
                flags[name] = rng.random() < 0.85
        return flags

    def metadata(self) -> dict:
        seed, index, rng, ident = self.seed, self.index, self.rng, self.ident
        pid = paper_id_for(seed, index)
        ids = self._venue_and_ids()
        citers = [paper_id_for(seed, i) for i in in_dump_citers(seed, index, self.papers)]
        if self.reason != "has_inbound_citations":
            outside = _between(rng, 0 if citers else 1, 3)
            citers += [str(_OUTSIDE_ID_BASE + _mix(seed, index, k, 0x0B) % 600_000_000) for k in range(outside)]
        outbound = [paper_id_for(seed, j) for j in self.targets]
        if self.reason == "mag_field_of_study":
            fos = None if self.variant == "null" else []
            mag_id = None if fos is None else str(2_000_000_000 + _mix(seed, index, 0x3A) % 900_000_000)
        else:
            fos = list(ident.fields)
            mag_id = str(2_000_000_000 + _mix(seed, index, 0x3A) % 900_000_000)
            if rng.random() < 0.04:  # merged MAG entities, as in the real sample
                mag_id += "," + str(2_000_000_000 + _mix(seed, index, 0x3B) % 900_000_000)
        record = {
            "paper_id": pid,
            "title": ident.title,
            "authors": [_author_record(a) for a in ident.authors],
            "abstract": abstract_for(seed, index),
            "year": ident.year,
            **ids,
        }
        flags = self.flags
        if flags is not None:
            record["has_pdf_body_text"] = flags["has_pdf_parsed_body_text"]
        record.update(
            mag_id=mag_id,
            mag_field_of_study=fos,
            outbound_citations=outbound,
            inbound_citations=citers,
            has_outbound_citations=bool(outbound),
            has_inbound_citations=bool(citers),
            has_pdf_parse=flags is not None,
        )
        if flags is not None:
            record.update(flags)
        record["s2_url"] = f"https://api.semanticscholar.org/CorpusID:{pid}"
        return record

    def _venue_and_ids(self) -> dict:
        """arxiv_id .. journal, in the release's key order.  Papers built to fail venue_or_id get
        none of the six (null or empty string) but may keep a DOI, which does not count."""
        rng, field = self.rng, self.ident.fields[0]
        journal = _pick(rng, (f"Journal of {field}", f"{field} Letters", f"Annals of {field} Research",
                              f"International Journal of {field}"))

        def maybe(condition: bool, odds: float, make):
            return make() if condition and rng.random() < odds else None

        values = {
            "arxiv_id": maybe(field in ("Physics", "Mathematics", "Computer Science"), 0.3,
                              lambda: f"{_between(rng, 1001, 2006)}.{_between(rng, 1, 9999):05d}"),
            "acl_id": maybe(field == "Computer Science", 0.1, lambda: f"P{_between(rng, 10, 19)}-{_between(rng, 1000, 1999)}"),
            "pmc_id": maybe(field in ("Medicine", "Biology"), 0.15, lambda: f"PMC{_between(rng, 1_000_000, 7_000_000)}"),
            "pubmed_id": maybe(field in ("Medicine", "Biology", "Psychology"), 0.4,
                               lambda: str(_between(rng, 1_000_000, 32_000_000))),
            "doi": maybe(True, 0.6, lambda: f"10.{_between(rng, 1000, 9999)}/{_pick(rng, 'abcdefgh')}{_between(rng, 1000, 99999)}"),
            "venue": maybe(True, 0.3, lambda: journal),
            "journal": maybe(True, 0.75, lambda: journal),
        }
        if self.reason == "venue_or_id":
            for key in _VENUE_OR_ID_KEYS:
                values[key] = _pick(rng, (None, None, ""))
        elif not any(values[k] for k in _VENUE_OR_ID_KEYS):
            values["journal"] = journal
        return values

    # -- pdf parse ---------------------------------------------------------------------------

    def pdf_parse(self) -> dict | None:
        """The pdf_parses record, with content matching the has_pdf_parsed_* flags (an empty
        list or dict where a flag is false), or None when the paper has no parse."""
        flags = self.flags
        if flags is None:
            return None
        self._build_bibliography()
        self.n_figures, self.n_tables = _between(self.rng, 2, 6), _between(self.rng, 1, 3)
        self.first_citation_pending = True
        self.sparse = self.rng.random() < 0.06  # papers with too few citations for CiteWorth
        abstract = self._abstract_paragraphs() if flags["has_pdf_parsed_abstract"] else []
        body = self._body() if flags["has_pdf_parsed_body_text"] else []
        return {
            "paper_id": paper_id_for(self.seed, self.index),
            "_pdf_hash": hashlib.sha1(f"{self.seed}:{self.index}:pdf".encode()).hexdigest(),
            "abstract": abstract,
            "body_text": body,
            "bib_entries": self.bib_entries if flags["has_pdf_parsed_bib_entries"] else {},
            "ref_entries": self._ref_entries() if flags["has_pdf_parsed_ref_entries"] else {},
        }

    def _build_bibliography(self) -> None:
        """Linked entries (the dump papers in ``targets``) mixed with unlinked ones and a little
        reference-extraction junk; text cites them through ``self.citable``."""
        rng, seed = self.rng, self.seed
        slots: list[int | None] = list(self.targets) + [None] * _between(rng, 2, 10)
        rng.shuffle(slots)
        if rng.random() < 0.1:
            slots.append(-1)  # junk entry such as "Available" with no authors
        self.bib_entries: dict[str, dict] = {}
        self.citable: list[_BibItem] = []
        self.linked: list[_BibItem] = []
        for n, target in enumerate(slots):
            ref_id = f"BIBREF{n}"
            if target == -1:
                title = _pick(rng, ("Available", "This article cites 57 articles, 21 of which can be accessed free at"))
                self.bib_entries[ref_id] = {"title": title, "authors": [], "year": "", "venue": "", "link": None}
                continue
            if target is None:
                vocab = _FIELD_VOCAB[_pick(rng, self.ident.fields)]
                authors = tuple(_random_author(rng) for _ in range(_pick(rng, (1, 2, 3, 4))))
                year: int | None = int(rng.triangular(1960, 2020.99, 2012))
                title = f"{_capitalize(_pick(rng, vocab.methods))} in {_pick(rng, vocab.topics)}"
                link = None
            else:
                target_ident = _identity(seed, target)
                authors, year, title = target_ident.authors, target_ident.year, target_ident.title
                link = paper_id_for(seed, target)
            suffix = "a" if rng.random() < 0.05 else ""
            self.bib_entries[ref_id] = {
                "title": title,
                # reference strings give initials only
                "authors": [{"first": a[0][:1], "middle": list(a[1]), "last": a[2], "suffix": a[3]} for a in authors],
                "year": year if year is not None else "",
                "venue": _pick(rng, ("", f"Journal of {self.ident.fields[0]}", "Proc. Natl. Acad. Sci", "Phys. Rev. Lett")),
                "link": link,
            }
            names, year_text = _author_year_label(authors, year, suffix)
            item = _BibItem(ref_id, n + 1, names, year_text, target)
            self.citable.append(item)
            if target is not None:
                self.linked.append(item)

    def _ref_entries(self) -> dict:
        """Figure and table captions; "Fig. k" in the text points at FIGREF{k-1}."""
        rng, vocab = self.rng, self.vocab
        entries = {}
        for k in range(self.n_figures):
            caption = f"{_capitalize(_pick(rng, vocab.measures))} of the {_pick(rng, vocab.objects)} obtained with {_pick(rng, vocab.methods)}."
            entries[f"FIGREF{k}"] = {"text": caption, "type": "figure"}
        for k in range(self.n_tables):
            caption = f"Summary of {_pick(rng, vocab.measures)} per group of {_pick(rng, vocab.objects)}."
            entries[f"TABREF{k}"] = {"text": caption, "type": "table"}
        return entries

    def _abstract_paragraphs(self) -> list[dict]:
        """The abstract as parsed from the PDF: the same text as the metadata (usually one
        paragraph, sometimes two), with a cite span where the abstract cites "[1]"."""
        sentences = _abstract_parts(self.seed, self.index).sentences
        split = len(sentences) if self.rng.random() < 0.9 else max(1, len(sentences) // 2)
        paragraphs = []
        for chunk in (sentences[:split], sentences[split:]):
            if not chunk:
                continue
            para = _Paragraph()
            text = " ".join(chunk)
            at = text.find("[1]")
            if at >= 0:
                para.add(text[:at])
                para.cite("[1]", self._ref_id(self.citable[0]) if self.citable else None)
                para.add(text[at + 3:])
            else:
                para.add(text)
            paragraphs.append(para.record("Abstract"))
        return paragraphs

    def _body(self) -> list[dict]:
        """Sections in a usual order, each paragraph of a kind drawn from _PARAGRAPH_KINDS, plus
        the parser debris real body_text has (caption fragments, lost headings, run-on text)."""
        rng = self.rng
        body = []
        if rng.random() < 0.3:
            body.append(self._caption_fragment())
        untitled_intro = rng.random() < 0.15  # parsers often lose the first heading
        for role, count in self._section_plan():
            title = _pick(rng, _SECTION_TITLES[role])
            if role == "introduction" and untitled_intro:
                title, role = "", "untitled"
            for _ in range(count):
                body.append(self._paragraph(title, role, rng.choices(_KIND_NAMES, _KIND_WEIGHTS)[0]))
        if rng.random() < 0.03:  # a very long paragraph, as PDF parsers produce from run-on text
            long = self._paragraph(_pick(rng, _SECTION_TITLES["discussion"]), "discussion", "long_paragraph")
            body.insert(_between(rng, 1, len(body)), long)
        if rng.random() < 0.2:
            body.append(self._caption_fragment())
        return body

    def _section_plan(self) -> list[tuple[str, int]]:
        """(role, number of paragraphs) in reading order."""
        rng = self.rng
        plan = [("introduction", _between(rng, 2, 3))]
        if rng.random() < 0.6:
            plan.append(("related", _between(rng, 1, 3)))
        plan.append(("methods", _between(rng, 1, 2)))
        if rng.random() < 0.3:
            plan.append(("other", 1))
        plan += [("results", _between(rng, 1, 2)), ("discussion", _between(rng, 1, 2)), ("conclusion", 1)]
        if rng.random() < 0.5:
            plan.append(("acknowledgments", 1))
        return plan

    def _caption_fragment(self) -> dict:
        """Caption text that PDF parsers emit as a body paragraph with an empty section."""
        self.paragraph_kinds["caption_fragment"] += 1
        rng, vocab = self.rng, self.vocab
        para = _Paragraph()
        para.add(_pick(rng, (
            f". Illustration of the {_pick(rng, vocab.measures)} estimates.",
            f"Figure {_between(rng, 1, self.n_figures)}. {_capitalize(_pick(rng, vocab.measures))} across {_pick(rng, vocab.objects)}.",
            f"(a) {_pick(rng, vocab.objects)}; (b) {_pick(rng, vocab.objects)}",
        )))
        return para.record("")

    # -- paragraphs and sentences ------------------------------------------------------------

    def _paragraph(self, section: str, role: str, kind: str) -> dict:
        """3-8 sentences (1-2 or 25-40 for the length kinds); a defect kind replaces one of them
        (the last one for a missing final period) by its defective sentence."""
        rng = self.rng
        self.paragraph_kinds[kind] += 1
        para = _Paragraph()
        if kind == "too_few_sentences":
            n = _between(rng, 1, 2)
        elif kind == "long_paragraph":
            n = _between(rng, 25, 40)
        else:
            n = _between(rng, 3, 8)
        defect_at = n - 1 if kind == "missing_final_period" else int(rng.random() * n)
        appetite = _CITE_APPETITE[role] * (0.1 if self.sparse else 1.0)
        defect = _DEFECT_WRITERS.get(kind)
        for k in range(n):
            if k:
                para.add(" ")
            if defect is not None and k == defect_at:
                defect(self, para)
            elif kind == "abbreviations" and rng.random() < 0.5:
                self._abbreviation_sentence(para)
            elif role == "related" and self.linked and rng.random() < 0.3:
                self._citesum_sentence(para)
            elif self.citable and rng.random() < appetite:
                self._cited_sentence(para)
            else:
                self._own_sentence(para)
        return para.record(section)

    def _fill(self, template: str) -> str:
        """Fill a sentence template with this paper's field vocabulary (only the slots used)."""
        return template.format_map(_Slots(self))

    def _ref_id(self, item: _BibItem) -> str | None:
        """The span's ref_id: null when the paper has no parsed bibliography, and now and then
        when the parser failed to resolve the marker."""
        if not self.flags["has_pdf_parsed_bib_entries"] or self.rng.random() < 0.02:
            return None
        return item.ref_id

    def _figure_ref_id(self, number: int) -> str | None:
        return f"FIGREF{number - 1}" if self.flags["has_pdf_parsed_ref_entries"] else None

    def _table_ref_id(self, number: int) -> str | None:
        return f"TABREF{number - 1}" if self.flags["has_pdf_parsed_ref_entries"] else None

    def _own_sentence(self, para: _Paragraph) -> None:
        """A statement about the paper's own work: not cite-worthy."""
        rng = self.rng
        roll = rng.random()
        if roll < 0.1:
            t = _between(rng, 1, self.n_tables)
            template = _pick(rng, _OWN_WITH_TABLE)
            before, after = template.split("Table {t}")
            para.add(self._fill(before) if before else "")
            para.ref(f"Table {t}", self._table_ref_id(t))
            para.add(self._fill(after) + ".")
            return
        if roll < 0.16:
            f = _between(rng, 1, self.n_figures)
            template = _pick(rng, _OWN_WITH_FIGURE)
            before, after = template.split("Figure {f}")
            para.add(self._fill(before) if before else "")
            para.ref(f"Figure {f}", self._figure_ref_id(f))
            para.add(self._fill(after) + ".")
            return
        if roll < 0.22:  # a cue phrase without a citation: keeps the task from being trivial
            para.add(self._fill(_pick(rng, _CLAIMS)) + ".")
            return
        para.add(self._fill(_pick(rng, _OWN_STATEMENTS)) + ".")

    def _cited_sentence(self, para: _Paragraph) -> None:
        """A cite-worthy claim with its citation at the very end, as CiteWorth keeps them."""
        para.add(self._fill(_pick(self.rng, _CLAIMS)))
        self._end_citation(para)

    def _end_citation(self, para: _Paragraph) -> None:
        """Close a claim with its citation and the period (after it, for superscript papers)."""
        rng = self.rng
        if self.style == "superscript":
            para.add(".")
            self._superscript_marker(para)
            return
        para.add(" ")
        self._citation_marker(para)
        para.add(" ." if rng.random() < 0.15 else ".")  # S2ORC often keeps a space before the period

    def _superscript_marker(self, para: _Paragraph) -> None:
        """Superscript numbers come out of PDFs as bare numbers after the period: "... cancer. 1" """
        rng = self.rng
        para.add(" ")
        items = rng.sample(self.citable, min(len(self.citable), _pick(rng, (1, 1, 2))))
        for k, item in enumerate(items):
            if k:
                para.add(" ")
            last = k == len(items) - 1
            para.cite(str(item.number) if last else f"{item.number},", self._ref_id(item))
        self.first_citation_pending = False

    def _citation_marker(self, para: _Paragraph) -> None:
        """One citation in the paper's style; the first one of a paper is always the plain form,
        because CiteWorth decides a paper's citation format from its first cited span."""
        rng = self.rng
        simple = self.first_citation_pending
        self.first_citation_pending = False
        items = self.citable
        if self.style == "numeric":
            form = "single" if simple else rng.choices(
                ("single", "list", "list_nospace", "range", "adjacent", "endash_pair"), (48, 12, 8, 10, 14, 8))[0]
            if form == "single" or len(items) < 3:
                item = _pick(rng, items)
                para.cite(f"[{item.number}]", self._ref_id(item))
            elif form in ("list", "list_nospace"):
                chosen = sorted(rng.sample(items, _between(rng, 2, 3)), key=lambda i: i.number)
                sep = ", " if form == "list" else ","
                para.cite("[" + sep.join(str(i.number) for i in chosen) + "]", self._ref_id(chosen[0]))
            elif form == "range":
                start = int(rng.random() * (len(items) - 2))
                end = _between(rng, start + 2, min(len(items) - 1, start + 5))
                para.cite(f"[{items[start].number}-{items[end].number}]", self._ref_id(items[start]))
            elif form == "adjacent":
                chosen = sorted(rng.sample(items, 3), key=lambda i: i.number)
                for k, item in enumerate(chosen):
                    if k:
                        para.add(" ")
                    para.cite(f"[{item.number}]", self._ref_id(item))
            else:  # "[1]–[4]": a range written as two bracketed markers
                start = int(rng.random() * (len(items) - 2))
                end = _between(rng, start + 2, min(len(items) - 1, start + 5))
                para.cite(f"[{items[start].number}]", self._ref_id(items[start]))
                para.add("–")
                para.cite(f"[{items[end].number}]", self._ref_id(items[end]))
            return
        form = "paren" if simple else rng.choices(("paren", "paren_multi", "paren_nocomma", "split"), (45, 20, 15, 20))[0]
        if form == "paren" or len(items) < 2:
            item = _pick(rng, items)
            para.cite(f"({item.names}, {item.year})", self._ref_id(item))
        elif form == "paren_nocomma":
            item = _pick(rng, items)
            para.cite(f"({item.names} {item.year})", self._ref_id(item))
        elif form == "paren_multi":
            chosen = rng.sample(items, _between(rng, 2, min(3, len(items))))
            para.cite("(" + "; ".join(f"{i.names}, {i.year}" for i in chosen) + ")", self._ref_id(chosen[0]))
        else:  # S2ORC splits "(A and B 2004; C et al. 2005a )" into one span per work
            chosen = rng.sample(items, _between(rng, 2, min(3, len(items))))
            for k, item in enumerate(chosen):
                last = k == len(chosen) - 1
                if k:
                    para.add(" ")
                text = f"{item.names} {item.year}"
                if k == 0:
                    text = "(" + text
                if not last:
                    para.cite(text + ";", self._ref_id(item))
                elif rng.random() < 0.5:
                    para.cite(text, self._ref_id(item))
                    para.add(" )")
                else:
                    para.cite(text + ")", self._ref_id(item))

    def _citesum_sentence(self, para: _Paragraph) -> None:
        """A Related Work sentence citing exactly one linked paper and reusing the wording of
        that paper's abstract, so that CiteSum's ROUGE-recall filter keeps it."""
        rng = self.rng
        item = _pick(rng, self.linked)
        clause, form = _pick(rng, _abstract_parts(self.seed, item.target).claims)
        self.first_citation_pending = False
        if form == "proposal":
            statement = f"{_capitalize(clause)} has been proposed"
        elif form == "passive":
            statement = f"In an earlier study, {clause}"
        else:
            statement = f"{_pick(rng, ('It was reported that', 'Previous work showed that', 'It has been shown that'))} {clause}"
        if self.style == "superscript":
            para.add(statement + ". ")
            para.cite(str(item.number), self._ref_id(item))
            return
        if rng.random() < 0.5:  # end-of-sentence form: also a valid CiteWorth sentence
            para.add(statement + " ")
            para.cite(f"[{item.number}]" if self.style == "numeric" else f"({item.names}, {item.year})", self._ref_id(item))
            para.add(".")
            return
        # inline form, as Related Work sections usually read: "Smith et al. (2019) proposed ..."
        if form == "passive":
            para.add("In ")
        if self.style == "numeric":
            para.add(f"{item.names} ")
            para.cite(f"[{item.number}]", self._ref_id(item))
        else:
            para.cite(f"{item.names} ({item.year})", self._ref_id(item))
        if form == "proposal":
            para.add(f" {_pick(rng, ('proposed', 'introduced', 'described'))} {clause}.")
        elif form == "passive":
            para.add(f", {clause}.")
        else:
            para.add(f" {_pick(rng, ('showed that', 'reported that', 'found that'))} {clause}.")

    def _abbreviation_sentence(self, para: _Paragraph) -> None:
        """Abbreviations that naive sentence splitters break at: Fig., Eq., Ref., cf., e.g., i.e."""
        rng, vocab = self.rng, self.vocab
        choice = int(rng.random() * 6)
        if choice == 0:
            f = _between(rng, 1, self.n_figures)
            para.add("As shown in ")
            para.ref(f"Fig. {f}", self._figure_ref_id(f))
            para.add(f", the {_pick(rng, vocab.measures)} increases with the number of {_pick(rng, vocab.objects)}.")
        elif choice == 1:
            para.add(f"The estimator follows from Eq. {_between(rng, 1, 9)} and the bound derived in Ref. {_between(rng, 1, 30)}.")
        elif choice == 2:
            para.add(f"Several factors, e.g. {_pick(rng, vocab.objects)} and {_pick(rng, vocab.topics)}, were considered in the design.")
        elif choice == 3:
            para.add(f"The effect holds for all {_pick(rng, vocab.objects)}, i.e. it does not depend on {_pick(rng, vocab.measures)}.")
        elif choice == 4:
            para.add("These trends agree with our earlier estimates (cf. ")
            t = _between(rng, 1, self.n_tables)
            para.ref(f"Table {t}", self._table_ref_id(t))
            para.add(").")
        else:
            name = _pick(rng, self.citable).names.split(" ")[0] if self.citable else "Smith"
            para.add(f"Similar values were found by {name} et al. in a larger sample of {_pick(rng, vocab.objects)}.")


# -- defect writers: each writes one sentence (or two) that breaks one CiteWorth check ----------


def _write_inline_citation(w: _PaperWriter, para: _Paragraph) -> None:
    """"Smith et al. (2019) showed that ...": CiteWorth ignores inline citations."""
    rng = w.rng
    if not w.citable:
        return _write_missed_citation(w, para)
    item = _pick(rng, w.citable)
    w.first_citation_pending = False
    verb = _pick(rng, ("showed that", "reported that", "argued that"))
    clause = w._fill(_pick(rng, _CONTINUATIONS))
    if w.style == "numeric":
        para.add(f"{item.names} ")
        para.cite(f"[{item.number}]", w._ref_id(item))
    elif rng.random() < 0.5:
        para.cite(f"{item.names} ({item.year})", w._ref_id(item))
    else:
        para.add(f"{item.names} ")
        para.cite(f"({item.year})", w._ref_id(item))
    para.add(f" {verb} {clause}.")


def _write_mid_sentence_citation(w: _PaperWriter, para: _Paragraph) -> None:
    """"As in [4], we use ...": the citation is not at the end of the sentence."""
    rng = w.rng
    if not w.citable:
        return _write_missed_citation(w, para)
    w.first_citation_pending = False
    if w.style == "superscript":
        item = _pick(rng, w.citable)
        para.add("Building on earlier work")
        para.cite(str(item.number), w._ref_id(item))
        para.add(f", we use {_pick(rng, w.vocab.methods)} for all {_pick(rng, w.vocab.objects)}.")
        return
    para.add(_pick(rng, ("As in ", "Following ", "Unlike ")))
    w._citation_marker(para)
    para.add(w._fill(", we use {method} to study the {object} in this work."))


def _write_hanging_citation(w: _PaperWriter, para: _Paragraph) -> None:
    """"... as shown by [3].": removing the citation leaves a dangling preposition."""
    rng = w.rng
    if not w.citable:
        return _write_missed_citation(w, para)
    para.add(w._fill(_pick(rng, _CLAIMS)))
    para.add(_pick(rng, (", as shown by ", ", see for example ", " as in ", ", see ", " following ")))
    if w.style == "superscript":
        item = _pick(rng, w.citable)
        para.cite(f"[{item.number}]", w._ref_id(item))
        w.first_citation_pending = False
    else:
        w._citation_marker(para)
    para.add(".")


def _write_missed_citation(w: _PaperWriter, para: _Paragraph) -> None:
    """A citation the parser missed: its text is there, but there is no cite span."""
    rng = w.rng
    if w.style == "author_year" or (w.style != "numeric" and rng.random() < 0.5):
        marker = f"({_pick(rng, _LAST_NAMES)}, {_between(rng, 1970, 2020)})"
    else:
        marker = f"[{_between(rng, 1, max(1, len(w.citable)))}]"
    para.add(f"{w._fill(_pick(rng, _CLAIMS))} {marker}.")


def _write_lowercase_start(w: _PaperWriter, para: _Paragraph) -> None:
    """A sentence starting in lower case, as when a PDF line break splits a sentence."""
    para.add(w._fill(_pick(w.rng, _CONTINUATIONS)) + ".")


def _write_missing_final_period(w: _PaperWriter, para: _Paragraph) -> None:
    """The paragraph's last sentence does not end with '.', '!' or '?'."""
    rng = w.rng
    para.add(_pick(rng, (
        w._fill("The following values of {measure} were obtained for the {object}:"),
        w._fill("The {measure} of the {object} is summarised below"),
        w._fill("Results for {object} are given in the next section;"),
    )))


def _write_short_sentence(w: _PaperWriter, para: _Paragraph) -> None:
    """A sentence shorter than 20 characters."""
    para.add(_pick(w.rng, ("This is expected.", "Results vary.", "Data not shown.", "See below.", "It is not.")))


def _write_crossing_citation(w: _PaperWriter, para: _Paragraph) -> None:
    """A cite span that runs across a sentence boundary."""
    rng = w.rng
    if w.first_citation_pending and w.citable:  # keep the paper's first span well-formed
        w._cited_sentence(para)
        para.add(" ")
    para.add(w._fill(_pick(rng, _CLAIMS)) + " ")
    if w.style == "author_year" and len(w.citable) >= 2 and rng.random() < 0.5:
        a, b = rng.sample(w.citable, 2)
        para.cite(f"({a.names} {a.year}. {b.names} {b.year})", w._ref_id(a))
        para.add(".")
    else:
        item = _pick(rng, w.citable) if w.citable else None
        if item is None:
            marker = "[1]"
        elif w.style == "author_year":
            marker = f"({item.names}, {item.year})"
        else:
            marker = f"[{item.number}]"
        para.cite(f"{marker}. Moreover", w._ref_id(item) if item else None)
        para.add(", " + w._fill(_pick(rng, _CONTINUATIONS)) + ".")
    w.first_citation_pending = False


def _write_equation(w: _PaperWriter, para: _Paragraph) -> None:
    """Equation numbers "(1)" that look like citations to a careless regex."""
    rng = w.rng
    para.add(w._fill(_pick(rng, (
        "The {measure} is estimated as ŷ = Σ_i w_i x_i (1) where w_i are weights fitted by {method}.",
        "Substituting (1) into (2) gives the estimator of {measure} used for the {object}.",
        "We minimise L(θ) = ‖y − Xθ‖² + λ‖θ‖₁ (3) over all admissible θ.",
    ))))


def _write_bracketed_decimal(w: _PaperWriter, para: _Paragraph) -> None:
    """Brackets around numbers that are not citations: "[1.5]", "[2/3]"."""
    rng = w.rng
    para.add(w._fill(_pick(rng, (
        "The mixing ratio was fixed at [1.5] for all {object} in this study.",
        "A fraction of [2/3] of the {object} met the inclusion criteria.",
        "Values of {measure} in the interval [0.2, 0.8] were considered plausible.",
    ))))


_DEFECT_WRITERS = {
    "inline_citation": _write_inline_citation,
    "mid_sentence_citation": _write_mid_sentence_citation,
    "hanging_citation": _write_hanging_citation,
    "missed_citation": _write_missed_citation,
    "lowercase_start": _write_lowercase_start,
    "missing_final_period": _write_missing_final_period,
    "short_sentence": _write_short_sentence,
    "crossing_citation": _write_crossing_citation,
    "equation": _write_equation,
    "bracketed_decimal": _write_bracketed_decimal,
}


# ---------------------------------------------------------------------------------------------
# Files
# ---------------------------------------------------------------------------------------------


class _AtomicGzipLines:
    """A gzip JSON-lines file written under a temporary name and renamed into place on success.

    ``mtime=0`` and an empty embedded file name make the bytes depend on the content only.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")

    def __enter__(self) -> "_AtomicGzipLines":
        self.raw = open(self.tmp, "wb")
        self.gz = gzip.GzipFile(fileobj=self.raw, mode="wb", mtime=0, filename="", compresslevel=3)
        return self

    def write(self, record: dict) -> None:
        self.gz.write((json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8"))

    def __exit__(self, exc_type, exc, tb) -> None:
        try:
            self.gz.close()
        finally:
            self.raw.close()
        if exc_type is None:
            os.replace(self.tmp, self.path)
        else:
            self.tmp.unlink(missing_ok=True)


def generate_sample_dump(
    out_dir: str | Path,
    papers: int = 1000,
    shards: int = 2,
    seed: int = 0,
    release: str = "20200705v1",
) -> dict:
    """Write a synthetic S2ORC release under ``out_dir/<release>/full/{metadata,pdf_parses}``.

    Papers are split into contiguous blocks, one per shard; ``pdf_parses_{i}`` holds exactly the
    papers of ``metadata_{i}`` whose ``has_pdf_parse`` is true, in the same order.  Returns a
    summary: papers and pdf_parses per shard, the intended first-failed candidate criterion per
    paper (``rejection_reasons``, including ``accepted``), citation styles, paragraph kinds, files
    and bytes written.
    """
    if papers < 0:
        raise ValueError("papers must be >= 0")
    if shards < 1:
        raise ValueError("shards must be >= 1")
    root = Path(out_dir) / release / "full"
    meta_dir, pdf_dir = root / "metadata", root / "pdf_parses"
    meta_dir.mkdir(parents=True, exist_ok=True)
    pdf_dir.mkdir(parents=True, exist_ok=True)

    reasons = Counter({name: 0 for name in (*CANDIDATE_CRITERIA, ACCEPTED)})
    styles: Counter = Counter()
    kinds: Counter = Counter()
    papers_per_shard, pdf_per_shard, files = [], [], []
    bytes_written = 0
    for shard in range(shards):
        lo, hi = shard * papers // shards, (shard + 1) * papers // shards
        meta_path = meta_dir / f"metadata_{shard}.jsonl.gz"
        pdf_path = pdf_dir / f"pdf_parses_{shard}.jsonl.gz"
        n_pdf = 0
        # pdf_parses is renamed into place first (inner context exits first), then metadata.
        with _AtomicGzipLines(meta_path) as meta_out, _AtomicGzipLines(pdf_path) as pdf_out:
            for index in range(lo, hi):
                writer = _PaperWriter(seed, index, papers)
                meta_out.write(writer.metadata())
                parse = writer.pdf_parse()
                if parse is not None:
                    pdf_out.write(parse)
                    n_pdf += 1
                reasons[writer.reason] += 1
                styles[writer.style] += 1
                kinds.update(writer.paragraph_kinds)
        papers_per_shard.append(hi - lo)
        pdf_per_shard.append(n_pdf)
        for path in (meta_path, pdf_path):
            bytes_written += path.stat().st_size
            files.append(str(path.relative_to(out_dir)))
    return {
        "release": release,
        "seed": seed,
        "papers": papers,
        "shards": shards,
        "papers_per_shard": papers_per_shard,
        "pdf_parses_per_shard": pdf_per_shard,
        "pdf_parses": sum(pdf_per_shard),
        "rejection_reasons": dict(reasons),
        "citation_styles": dict(sorted(styles.items())),
        "paragraph_kinds": dict(sorted(kinds.items())),
        "files": files,
        "bytes_written": bytes_written,
    }
