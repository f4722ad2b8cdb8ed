"""Every reason a cited Related Work sentence is not a CiteSum candidate (CiteSum §2.1), listed once.

The drop rows of ``citesum_drops`` carry the name; this registry says what it means (merged with every domain's in
the warehouse view ``platform.drop_reasons``).
"""

from citeworth_assets.lib.reasons import ReasonRegistry

REASONS = ReasonRegistry("citesum", ("sentence",))
REASONS.describe(
    "sentence",
    {
        "invalid_citation_offsets": "a citation span of the parse has offsets outside its paragraph",
        "citation_crosses_sentence": "a citation span starts in one sentence and ends in another",
        "unlinked_citation": "a citation of the sentence is linked to no paper of the dump",
        "several_cited_papers": "the sentence cites more than one distinct paper (CiteSum keeps one)",
        "cited_paper_unknown": "the cited paper is not in the dump, so it has no abstract to summarise",
        "cited_abstract_too_short": "the cited paper's abstract has fewer words than the minimum (20)",
    },
)
