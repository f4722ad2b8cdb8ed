"""Every reason a cited Related Work sentence is not a CiteSum candidate (CiteSum §2.1), listed once.

The drop rows of ``citesum_drops`` carry the name; this registry says what it means (merged with every domain's in
the warehouse view ``platform.drop_reasons``).
"""

from citeworth_assets.lib.reasons import ReasonRegistry

REASONS = ReasonRegistry("citesum", ("sentence",))
INVALID_CITATION_OFFSETS = REASONS.add(
    "invalid_citation_offsets", "sentence", "a citation span of the parse has offsets outside its paragraph"
)
CITATION_CROSSES_SENTENCE = REASONS.add(
    "citation_crosses_sentence", "sentence", "a citation span starts in one sentence and ends in another"
)
UNLINKED_CITATION = REASONS.add(
    "unlinked_citation", "sentence", "a citation of the sentence is linked to no paper of the dump"
)
SEVERAL_CITED_PAPERS = REASONS.add(
    "several_cited_papers", "sentence", "the sentence cites more than one distinct paper (CiteSum keeps one)"
)
CITED_PAPER_UNKNOWN = REASONS.add(
    "cited_paper_unknown", "sentence", "the cited paper is not in the dump, so it has no abstract to summarise"
)
CITED_ABSTRACT_TOO_SHORT = REASONS.add(
    "cited_abstract_too_short", "sentence", "the cited paper's abstract has fewer words than the minimum (20)"
)
