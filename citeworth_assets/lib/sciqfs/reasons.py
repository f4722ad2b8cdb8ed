"""Every reason a (citing paper, reference) pair gives no ROUGE-SciQFS example (ROUGE-SciQFS §3), listed once.

The example builder's pair criteria (``PAIR_CRITERIA`` in :mod:`~citeworth_assets.lib.sciqfs.examples`) skip pairs
for these reasons; the registry says what each means (merged with every domain's in the warehouse view
``platform.drop_reasons``, with the tallies of the examples assets).
"""

from citeworth_assets.lib.reasons import ReasonRegistry

REASONS = ReasonRegistry("sciqfs", ("example",))
REASONS.describe(
    "example",
    {
        "reference_without_abstract": "the cited reference has no abstract, so there is no query",
        "paper_too_long": "the citing paper has more sentences than the configured max_sentences",
        "no_citing_sentence_found": "none of the citation contexts matched a sentence of the citing paper",
    },
)
