"""The CiteWorth release's dataset card: what it says beyond its files, and Table 2's statistics per split."""

from __future__ import annotations

from citeworth_assets.lib.dataset_cards import CardSpec
from citeworth_assets.lib.lazy import lazy_module

pa = lazy_module("pyarrow")
pc = lazy_module("pyarrow.compute")

CITEWORTH_PAPER = (
    "CiteWorth: Cite-Worthiness Detection for Improved Scientific Document Understanding (Wright and Augenstein, 2021)"
)


def citeworth_statistics(table: pa.Table) -> list[dict]:
    """Per split: paragraphs, sentences, cite-worthy sentences and their share (the CiteWorth paper's Table 2)."""
    rows = []
    for split in ("train", "dev", "test"):
        samples = [
            s
            for row in table.filter(pc.equal(table.column("split"), split)).column("samples").to_pylist()
            for s in row or []
        ]
        positive = sum(sample["label"] == "check-worthy" for sample in samples)
        paragraphs = table.filter(pc.equal(table.column("split"), split)).num_rows
        rows.append(
            {
                "split": split,
                "paragraphs": paragraphs,
                "sentences": len(samples),
                "cite_worthy": positive,
                "cite_worthy_share": round(positive / len(samples), 4) if samples else None,
            }
        )
    return rows


def citeworth_figures(table: pa.Table) -> dict[str, bytes]:
    from citeworth_assets.lib import plots

    per_field: dict[str, dict] = {}
    for field_name, samples in zip(table.column("field").to_pylist(), table.column("samples").to_pylist()):
        row = per_field.setdefault(field_name, {"field": field_name, "cite_worthy": 0, "non_cite_worthy": 0})
        for sample in samples or []:
            row["cite_worthy" if sample["label"] == "check-worthy" else "non_cite_worthy"] += 1
    for row in per_field.values():
        total = row["cite_worthy"] + row["non_cite_worthy"]
        row["cite_worthy_share"] = row["cite_worthy"] / total if total else 0
    return {
        "table_2": plots.field_statistics(sorted(per_field.values(), key=lambda r: r["field"]), "sentences per field")
    }


CARD = CardSpec(
    pretty_name="CiteWorth (reproduced)",
    description=(
        "Cite-worthiness detection: paragraphs of scientific papers whose sentences are labelled `check-worthy` "
        "(the sentence had a citation, now removed) or `non-check-worthy`, from papers of exactly one field of study, "
        "the same number of paragraphs per field, split 80/10/10 by paper. The records have the published "
        "CiteWorth release's fields."
    ),
    construction=(
        "Papers pass the candidate filter (a field of study, inbound citations, a full PDF parse with abstract, body, "
        "bibliography and references, a non-empty abstract, a venue or identifier). Paragraphs come from permissible "
        "sections; citation spans are found, checked and removed with the rule set named by the version below "
        "(`citeworth_2021` reproduces the published construction code exactly; `citeworth_improved_v<n>` adds named "
        "improvements). Every dropped paper, paragraph and sentence is recorded with the rule that dropped it."
    ),
    paper=CITEWORTH_PAPER,
    statistics=citeworth_statistics,
    figures=citeworth_figures,
)
