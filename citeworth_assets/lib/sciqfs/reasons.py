"""Every reason a (citing paper, reference) pair gives no ROUGE-SciQFS example (ROUGE-SciQFS §3), listed once.

The example builder counts skipped pairs by these names; the registry says what each means (merged with every
domain's in the warehouse view ``platform.drop_reasons``).
"""

from citeworth_assets.lib.reasons import ReasonRegistry

REASONS = ReasonRegistry("sciqfs", ("example",))
REFERENCE_WITHOUT_ABSTRACT = REASONS.add(
    "reference_without_abstract", "example", "the cited reference has no abstract, so there is no query"
)
PAPER_TOO_LONG = REASONS.add(
    "paper_too_long", "example", "the citing paper has more sentences than the configured max_sentences"
)
NO_CITING_SENTENCE_FOUND = REASONS.add(
    "no_citing_sentence_found", "example", "none of the citation contexts matched a sentence of the citing paper"
)
