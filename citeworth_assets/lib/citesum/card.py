"""The CiteSum release's dataset card: what it says beyond its files, statistics per split, the ROUGE figure."""

from __future__ import annotations

from citeworth_assets.lib.dataset_cards import CardSpec
from citeworth_assets.lib.lazy import lazy_module

pa = lazy_module("pyarrow")
pc = lazy_module("pyarrow.compute")

CITESUM_PAPER = (
    "CiteSum: Citation Text-guided Scientific Extreme Summarization and Domain Adaptation with Limited Supervision "
    "(Mao et al., 2022)"
)


def citesum_statistics(table: pa.Table) -> list[dict]:
    rows = []
    for split in ("train", "validation", "test"):
        part = table.filter(pc.equal(table.column("split"), split))
        unknown = sum(value is None for value in part.column("discipline").to_pylist())
        rows.append(
            {
                "split": split,
                "examples": part.num_rows,
                "cited_papers": len(set(part.column("cited_paper_id").to_pylist())),
                "unknown_discipline": unknown,
            }
        )
    return rows


def citesum_figures(table: pa.Table) -> dict[str, bytes]:
    from citeworth_assets.lib import plots

    columns = list(plots.CITESUM_THRESHOLDS)
    rows = table.select(columns).to_pylist()
    return {
        "rouge_distribution": plots.rouge_distribution(
            rows, title="kept examples: ROUGE recall against the cited abstract"
        )
    }


CARD = CardSpec(
    pretty_name="CiteSum (reproduced)",
    description=(
        "Extreme (one-sentence) summarization of scientific papers: `src` is the cited paper's abstract, `tgt` a "
        "Related Work sentence that cites only that paper, with the citation replaced by REF. `discipline` is the "
        "cited paper's field of study; it is null (unknown) where the dump gives the cited paper no field."
    ),
    construction=(
        "Related Work sentences citing exactly one distinct linked paper whose abstract has at least 20 words; kept "
        "when ROUGE-1/2/L recall of the sentence (citation removed) against the cited abstract reaches 50/20/40 "
        "(rouge-score, stemming on). Split 90/5/5 by cited paper, so no cited paper of validation or test is in train."
    ),
    paper=CITESUM_PAPER,
    task_categories=("summarization",),
    statistics=citesum_statistics,
    figures=citesum_figures,
)
