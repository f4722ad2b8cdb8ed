"""Why a cited Related Work sentence is not a CiteSum candidate (CiteSum §2.1): the candidate filter's criteria.

Each criterion is a plain function of one item, declared with the reason it drops for (registered in
:mod:`~citeworth_assets.lib.citesum.reasons`): a predicate saying what must hold. The filters are the tuples at the
end, applied in their order by :func:`citeworth_assets.lib.filters.first_failure`; the first criterion an item fails
names its drop. To add a criterion: write it here, put it in its tuple where it should run, register its reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

from citeworth_assets.lib.citesum.reasons import REASONS
from citeworth_assets.lib.filters import criterion


@dataclass
class CitingSentence:
    """A sentence of a Related Work paragraph that citation spans touch: what the sentence criteria judge."""

    text: str
    paragraph: dict  # the ``s2orc_paragraphs`` row it is in
    touching: list[dict]  # the paragraph's citation spans that overlap the sentence
    inside: list[dict]  # those wholly inside it
    abstracts: Mapping[str, str | None]  # paper id -> abstract, the cited papers' at least
    min_abstract_words: int

    @cached_property
    def cited(self) -> set[str | None]:
        """The papers the spans inside the sentence link to (None: a span linked to no paper)."""
        return {span["linked_paper_id"] for span in self.inside}

    @property
    def cited_paper(self) -> str | None:
        return next(iter(self.cited), None)


# Paragraphs, before splitting.
@criterion(REASONS, "invalid_citation_offsets")
def valid_citation_offsets(paragraph: dict) -> bool:
    """A paragraph whose reader dropped a citation span for bad offsets is dropped whole: any of its sentences may
    have lost a citation to a second paper."""
    return not paragraph.get("invalid_span_count")


# Sentences.
@criterion(REASONS, "citation_crosses_sentence")
def citations_within_sentence(sentence: CitingSentence) -> bool:
    """A span crossing the sentence's boundary leaves its citations unknown for sure."""
    return len(sentence.inside) == len(sentence.touching)


@criterion(REASONS, "unlinked_citation")
def citations_linked(sentence: CitingSentence) -> bool:
    return None not in sentence.cited


@criterion(REASONS, "several_cited_papers")
def one_cited_paper(sentence: CitingSentence) -> bool:
    return len(sentence.cited) <= 1


@criterion(REASONS, "cited_paper_unknown")
def cited_paper_known(sentence: CitingSentence) -> bool:
    """The cited abstract is the model's input: a paper outside the dump has none."""
    return sentence.cited_paper in sentence.abstracts


@criterion(REASONS, "cited_abstract_too_short")
def cited_abstract_long_enough(sentence: CitingSentence) -> bool:
    return len((sentence.abstracts[sentence.cited_paper] or "").split()) >= sentence.min_abstract_words


PARAGRAPH_CRITERIA = (valid_citation_offsets,)
SENTENCE_CRITERIA = (
    citations_within_sentence,
    citations_linked,
    one_cited_paper,
    cited_paper_known,
    cited_abstract_long_enough,
)
