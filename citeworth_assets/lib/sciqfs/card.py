"""The ROUGE-SciQFS release's dataset card: what it says beyond its files, and Table 1 recomputed from them."""

from __future__ import annotations

from citeworth_assets.lib.dataset_cards import CardSpec
from citeworth_assets.lib.lazy import lazy_module

pa = lazy_module("pyarrow")

SCIQFS_PAPER = (
    "ROUGE-SciQFS: A ROUGE-based Method to Automatically Create Datasets for Scientific Query-Focused Summarization "
    "(Ramirez-Orta and Milios)"
)


def sciqfs_statistics(table: pa.Table) -> list[dict]:
    """Table 1 of the ROUGE-SciQFS paper, recomputed from the released examples."""
    from citeworth_assets.lib.sciqfs.statistics import statistics_from_release

    return statistics_from_release(table).to_pylist()


SCIQFS_CONSTRUCTION = (
    "Papers / References / Citations tables from the parsed papers (S2ORC pdf_parses, unarXive papers with resolved "
    "references, or Science-Parse JSON); references de-duplicated by normalised title. One example per (citing paper, "
    "reference with an abstract): the citing paper's sentences are the document, the reference's abstract the query, "
    "and a sentence is labelled relevant when it is one of the citing sentences, each citation context matched on its "
    "own (`label_sources` = `citation`). The greedy ROUGE augmentation then adds, one at a time, the sentence that "
    "most improves the ROUGE-N F1 of the selected sentences against the query, until none improves it "
    "(`label_sources` = `rouge`); `rouge_precision/recall/fmeasure` are the final selection's scores. Splits group "
    "examples by citing paper (80/10/10, seeded), so no document is in two splits."
)
SCIQFS_LICENCE = (
    "The examples quote the papers they were built from and inherit their terms: S2ORC is released for non-commercial "
    "use under ODC-By 1.0; unarXive is CC BY-SA 4.0, each paper's text under its own arXiv licence; a Science-Parse "
    "collection carries the licences of its PDFs."
)


CARD = CardSpec(
    pretty_name="ROUGE-SciQFS (reproduced)",
    description=(
        "Scientific query-focused summarization as sentence selection: `sentences` is a citing paper's text split "
        "into sentences, `query` a cited paper's abstract, `labels` marks the sentences that summarise the cited "
        "paper for that query (the sentences citing it, plus those the greedy ROUGE augmentation added), "
        "`label_sources` says which (`citation`, `rouge`, or null for a negative)."
    ),
    construction=SCIQFS_CONSTRUCTION,
    paper=SCIQFS_PAPER,
    source_licence=SCIQFS_LICENCE,
    licence_name="inherits-source-licences",
    task_categories=("summarization", "text-retrieval"),
    statistics=sciqfs_statistics,
    files="and the same rows as Parquet.",
    provenance=(
        "Every example names its citing paper (`paper_id`, the id in the parsed papers) and the reference "
        "(`reference_id`, the de-duplicated reference of the References table), so an example can be traced to "
        "the paper and citation contexts it came from."
    ),
)
