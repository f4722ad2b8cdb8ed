"""Dataset cards: the README.md of every release folder, in the Hugging Face convention.

A YAML header (pretty name, licence, task, ``configs`` naming each split's file so that
``datasets.load_dataset("json", data_dir=folder)`` and the Hub see the same splits, and ``dataset_info`` with the
features and split sizes), then the description, statistics, how the data was made (rules and their version),
provenance and the source's licence. The features are read from the records as written, so the card cannot
disagree with the files. Each domain declares its card (``lib/<domain>/card.py``, listed by its ``owned`` module)
and hands it to :func:`citeworth_assets.lib.releases.write_release`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

from citeworth_assets.lib.lazy import lazy_module

pa = lazy_module("pyarrow")

S2ORC_LICENCE = (
    "S2ORC (the Semantic Scholar Open Research Corpus) is released for non-commercial use under ODC-By 1.0; these "
    "derived files inherit its terms."
)


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


def _card_header(spec: CardSpec, counts: Mapping[str, int], sizes: Mapping[str, int], features: list[dict]) -> dict:
    """The card's YAML header, as the Hugging Face hub reads it: licence, tasks, one config with a file per split."""
    splits = list(counts)
    return {
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


def _s2ag_releases(table: pa.Table, named: Sequence[str] = ()) -> str:
    """A sentence naming the S2AG releases the records come from: those of the table's provenance columns and
    ``named`` (a release whose records carry no provenance, given by its caller); none for the 2020 release."""
    releases = set(named)
    if "shard" in table.column_names and "release" in table.column_names:
        pairs = zip(table.column("shard").to_pylist(), table.column("release").to_pylist())
        releases |= {release for shard, release in pairs if shard and shard.startswith("s2ag_") and release}
    if not releases:
        return ""
    listed = ", ".join(f"`{release}`" for release in sorted(releases))
    return (
        f"\nS2ORC papers come from the Semantic Scholar Academic Graph (S2AG) datasets, release {listed} "
        "(`s2orc` full texts with `papers` and `abstracts`)."
    )


def s2ag_releases(lake_root: Path, table: str) -> list[str]:
    """The S2AG releases of the full-text files a lake table's shard partitions were built from (by the
    ``release`` column of ``s2orc_papers``), for the cards of releases whose records carry no provenance."""
    import pyarrow.parquet as pq

    shards = [path.name.split("=", 1)[1] for path in (lake_root / table).glob("shard=s2ag_*") if path.is_dir()]
    found: set[str] = set()
    for shard in shards:
        for path in (lake_root / "s2orc_papers" / f"shard={shard}").glob("*.parquet"):
            found.update(v for v in pq.read_table(path, columns=["release"]).column(0).unique().to_pylist() if v)
    return sorted(found)


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
    s2ag: Sequence[str] = (),
) -> str:
    """The README.md of a release folder (``s2ag``: the S2AG releases it was built from, where its records do not
    say): ``counts`` per split, ``samples`` of records per split (for the features,
    unless the records' ``schema`` is given: a writer with a fixed schema knows better than a sample), ``sizes`` the
    bytes of each split's file."""
    sizes = sizes or {}
    features = (
        feature(pa.struct(list(schema)))["struct"]
        if schema is not None
        else features_of([record for records in samples.values() for record in records])
    )
    splits = list(counts)
    header = _card_header(spec, counts, sizes, features)
    statistics = (
        spec.statistics(table) if spec.statistics else [{"split": split, "records": counts[split]} for split in splits]
    )
    pictures = "\n".join(f"![{figure}]({figure}.png)" for figure in figures)
    files = spec.files or "and the whole table with provenance columns as Parquet."
    provenance = (
        spec.provenance
        or (
            f"{name} is built from the dump files named in the Parquet file's provenance columns (`release`, `shard`,\n"
            "`source_file`, `line`, `byte_offset` where present): every record can be traced to the line it came from."
        )
    ) + _s2ag_releases(table, s2ag)
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
