"""Sentence material, section titles, paragraph kinds and the paragraph/span builder.

Cite-worthy claims lean on cue phrases ("has been shown", "previous studies", "was reported",
"widely used") so that a classifier can learn them; the paper's own statements lean on "we",
"our", "this study", tables and numbers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from citeworth_assets.samples.s2orc.graph import _between, _pick

if TYPE_CHECKING:
    from citeworth_assets.samples.s2orc.paper import _PaperWriter


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
    "introduction": (
        "Introduction",
        "1 Introduction",
        "1. Introduction",
        "I. INTRODUCTION",
        "INTRODUCTION",
        "Introduction:",
    ),
    "related": (
        "Related Work",
        "2 Related Work",
        "II. RELATED WORK",
        "RELATED WORKS",
        "Background",
        "Literature Review",
        "2. Related work",
    ),
    "methods": (
        "Methods",
        "Methods:",
        "3 Methods",
        "Methodology",
        "Materials and Methods",
        "Material and methods",
        "Experimental Design",
        "Proposed Method",
        "METHODS",
    ),
    "results": (
        "Results",
        "4 Results",
        "RESULTS AND DISCUSSION",
        "Experiments and Results",
        "Evaluation",
        "Analysis",
        "Experimental Results",
    ),
    "discussion": ("Discussion", "5 Discussion", "Discussions", "DISCUSSION", "Discussion and Conclusions"),
    "conclusion": (
        "Conclusion",
        "Conclusions",
        "6 Conclusions and Future Work",
        "CONCLUSION",
        "Future Work",
        "Limitations",
    ),
    # not in CiteWorth's list of permissible titles
    "other": (
        "Materials",
        "Proof of Theorem 2",
        "Study area",
        "Statistical analysis",
        "Appendix A",
        "Data availability",
    ),
    "acknowledgments": ("Acknowledgments", "Acknowledgements", "ACKNOWLEDGMENTS", "Funding"),
}
_CITE_APPETITE = {
    "introduction": 0.55,
    "related": 0.7,
    "methods": 0.3,
    "results": 0.2,
    "discussion": 0.4,
    "conclusion": 0.15,
    "other": 0.25,
    "acknowledgments": 0.0,
    "untitled": 0.35,
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
        return {
            "section": section,
            "text": "".join(self.parts),
            "cite_spans": self.cite_spans,
            "ref_spans": self.ref_spans,
        }


class _Slots(dict):
    """Template slots drawn lazily, so a template pays only for the words it uses."""

    __slots__ = ("writer",)

    def __init__(self, writer: _PaperWriter) -> None:
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
