"""Dataset cards: the README.md of every release folder, in the Hugging Face convention.

A YAML header (pretty name, licence, task, ``configs`` naming each split's file so that
``datasets.load_dataset("json", data_dir=folder)`` and the Hub see the same splits, and ``dataset_info`` with the
features and split sizes), then the description, statistics, how the data was made (rules and their version),
provenance and the source's licence. The features are read from the records as written, so the card cannot
disagree with the files.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import metadata

import pyarrow as pa
import pyarrow.compute as pc

CITEWORTH_PAPER = (
    "CiteWorth: Cite-Worthiness Detection for Improved Scientific Document Understanding (Wright and Augenstein, 2021)"
)
CITESUM_PAPER = "CiteSum: Citation Text-guided Scientific Extreme Summarization and Domain Adaptation with Limited Supervision (Mao et al., 2022)"
SCIQFS_PAPER = "ROUGE-SciQFS: A ROUGE-based Method to Automatically Create Datasets for Scientific Query-Focused Summarization (Ramirez-Orta and Milios)"
S2ORC_LICENCE = "S2ORC (the Semantic Scholar Open Research Corpus) is released for non-commercial use under ODC-By 1.0; these derived files inherit its terms."


@dataclass(frozen=True)
class CardSpec:
    """What a release's card says beyond what its files show."""

    pretty_name: str
    description: str
    construction: str
    paper: str
    source_licence: str = S2ORC_LICENCE
    licence_id: str = "other"  # the Hub's licence identifier; "other" with licence_name when it has none
    licence_name: str = "odc-by-non-commercial"
    task_categories: Sequence[str] = ("text-classification",)
    statistics: Callable[[pa.Table], list[dict]] | None = None  # rows of the statistics table
    figures: Callable[[pa.Table], dict[str, bytes]] | None = field(default=None)  # name -> PNG, written beside the card
    files: str | None = None  # the "Files and loading" paragraph, when the release is not one Parquet table
    provenance: str | None = None  # the "Provenance" paragraph, when records carry no dump-line columns


def feature(kind: pa.DataType) -> dict:
    """The Hugging Face feature (``dtype``, ``list`` or ``struct``) of an Arrow type."""
    if pa.types.is_list(kind) or pa.types.is_large_list(kind):
        inner = feature(kind.value_type)
        if "struct" in inner:
            return {"list": inner["struct"]}
        return {"list": inner["dtype"] if set(inner) == {"dtype"} else inner}
    if pa.types.is_struct(kind):
        return {"struct": [{"name": item.name, **feature(item.type)} for item in kind]}
    if pa.types.is_boolean(kind):
        return {"dtype": "bool"}
    if pa.types.is_integer(kind):
        return {"dtype": str(kind)}
    if pa.types.is_floating(kind):
        return {"dtype": f"float{kind.bit_width}"}
    return {"dtype": "string"}  # strings, and columns that are null in every sampled record


def features_of(records: Sequence[Mapping]) -> list[dict]:
    """The features of JSON records, from Arrow's type inference over all of them (keys that only some records
    have, nested lists that are empty in the first record)."""
    records = [record for record in records if record]
    if not records:
        return []
    return feature(pa.array(records).type)["struct"]


def _yaml(value, indent: int = 0) -> str:
    """A small YAML writer for the header (lists of mappings, mappings, scalars) - no dependency for so little."""
    pad = " " * indent
    if isinstance(value, Mapping):
        lines = []
        for key, item in value.items():
            if isinstance(item, (Mapping, list)) and item:
                lines.append(f"{pad}{key}:\n{_yaml(item, indent + 2)}")
            else:
                lines.append(f"{pad}{key}: {json.dumps(item)}")
        return "\n".join(lines)
    lines = []
    for item in value:
        if isinstance(item, Mapping):
            body = _yaml(item, indent + 2)
            lines.append(f"{pad}- {body.lstrip()}")
        else:
            lines.append(f"{pad}- {json.dumps(item)}")
    return "\n".join(lines)


def _markdown(rows: Sequence[Mapping]) -> str:
    if not rows:
        return ""
    columns = list(rows[0])
    cell = lambda v: "" if v is None else f"{v:.4g}" if isinstance(v, float) else str(v)  # noqa: E731
    return "\n".join(
        [
            "| " + " | ".join(columns) + " |",
            "| " + " | ".join("---" for _ in columns) + " |",
            *("| " + " | ".join(cell(row[c]) for c in columns) + " |" for row in rows),
        ]
    )


def platform_version() -> str:
    try:
        return metadata.version("citeworth")
    except metadata.PackageNotFoundError:
        return "unknown"


def dataset_card(
    spec: CardSpec,
    name: str,
    version: str,
    counts: Mapping[str, int],
    samples: Mapping[str, list[dict]],
    table: pa.Table,
    figures: Sequence[str] = (),
    sizes: Mapping[str, int] | None = None,
    schema: pa.Schema | None = None,
) -> str:
    """The README.md of a release folder: ``counts`` per split, ``samples`` of records per split (for the features,
    unless the records' ``schema`` is given: a writer with a fixed schema knows better than a sample), ``sizes`` the
    bytes of each split's file."""
    sizes = sizes or {}
    features = (
        feature(pa.struct(list(schema)))["struct"]
        if schema is not None
        else features_of([record for records in samples.values() for record in records])
    )
    splits = list(counts)
    header = {
        "pretty_name": spec.pretty_name,
        "language": ["en"],
        "license": spec.licence_id,
        **({"license_name": spec.licence_name} if spec.licence_id == "other" else {}),
        "task_categories": list(spec.task_categories),
        "configs": [
            {"config_name": "default", "data_files": [{"split": split, "path": f"{split}.jsonl"} for split in splits]}
        ],
        "dataset_info": {
            "config_name": "default",
            "features": features,
            "splits": [
                {"name": split, "num_bytes": sizes.get(split, 0), "num_examples": counts[split]} for split in splits
            ],
        },
    }
    statistics = (
        spec.statistics(table) if spec.statistics else [{"split": split, "records": counts[split]} for split in splits]
    )
    pictures = "\n".join(f"![{figure}]({figure}.png)" for figure in figures)
    files = spec.files or "and the whole table with provenance columns as Parquet."
    provenance = spec.provenance or (
        f"{name} is built from the dump files named in the Parquet file's provenance columns (`release`, `shard`,\n"
        "`source_file`, `line`, `byte_offset` where present): every record can be traced to the line it came from."
    )
    return f"""---
{_yaml(header)}
---

# {spec.pretty_name} ({version})

{spec.description}

## Files and loading

One JSON-lines file per split ({", ".join(f"`{split}.jsonl`" for split in splits)}) {files} Load it with

```python
import datasets
release = datasets.load_dataset("json", data_dir="path/to/this/folder")
```

## Statistics

{_markdown(statistics)}

{pictures}

## How it was made

{spec.construction}

Construction version: `{version}`, written by citeworth {platform_version()} on
{datetime.now(UTC).strftime("%Y-%m-%d")}.

## Provenance

{provenance}

Paper: *{spec.paper}*.

## Licence

{spec.source_licence}
"""


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


def sciqfs_statistics(table: pa.Table) -> list[dict]:
    """Table 1 of the ROUGE-SciQFS paper, recomputed from the released examples."""
    from citeworth_assets.lib.sciqfs.statistics import statistics_from_release

    return statistics_from_release(table).to_pylist()


SCIQFS_CONSTRUCTION = (
    "Papers / References / Citations tables from the parsed papers (S2ORC pdf_parses, unarXive papers with resolved "
    "references, or Science-Parse JSON); references de-duplicated by normalised title. One example per (citing paper, "
    "reference with an abstract): the citing paper's sentences are the document, the reference's abstract the query, "
    "and a sentence is labelled relevant when it is one of the citing sentences, each citation context matched on its "
    "own (`label_sources` = `citation`). The greedy ROUGE augmentation then adds, one at a time, the sentence that most "
    "improves the ROUGE-N F1 of the selected sentences against the query, until none improves it (`label_sources` = "
    "`rouge`); `rouge_precision/recall/fmeasure` are the final selection's scores. Splits group examples by citing "
    "paper (80/10/10, seeded), so no document is in two splits."
)
SCIQFS_LICENCE = (
    "The examples quote the papers they were built from and inherit their terms: S2ORC is released for non-commercial "
    "use under ODC-By 1.0; unarXive is CC BY-SA 4.0, each paper's text under its own arXiv licence; a Science-Parse "
    "collection carries the licences of its PDFs."
)

CARDS: dict[str, CardSpec] = {
    "citeworth": CardSpec(
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
    ),
    "citesum": CardSpec(
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
    ),
    "sciqfs": CardSpec(
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
    ),
}
