"""A generated OpenAlex works snapshot in the 2026 layout, with the faults real snapshots have.

``data/jsonl/works/updated_date=*/part_NNNN.gz`` and its Parquet copy ``data/parquet/works/...parquet``, each with a
Redshift manifest (``data/<format>/manifest.json``). Works carry what the 2026 API gives: ``primary_topic`` and
``topics`` (field, domain, subfield), and level-0 ``concepts`` for some only (concepts are deprecated); the faults:
a part shorter than its manifest count (a download cut off), a work whose ``referenced_works`` is a string and whose
``cited_by_count`` is text (a damaged export), a concept spelt with OpenAlex's casing (``Computer science``).
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.mag.openalex_fields import FIELD_TO_MAG, SUBFIELD_TO_MAG
from citeworth_assets.lib.mag.openalex_snapshot import JSONL_WORKS, PARQUET_WORKS, WORK_COLUMNS
from citeworth_assets.samples.mag import Work, filler_work, openalex_record

pa = lazy_module("pyarrow")
pq = lazy_module("pyarrow.parquet")

UPDATED, LATER = "updated_date=2026-03-15", "updated_date=2026-03-20"
DOMAINS = {
    "Life Sciences": ("Agricultural and Biological Sciences", "Biochemistry, Genetics and Molecular Biology"),
    "Social Sciences": (
        "Arts and Humanities",
        "Business, Management and Accounting",
        "Economics, Econometrics and Finance",
        "Psychology",
        "Social Sciences",
    ),
    "Health Sciences": ("Medicine",),
}


def _domain(field: str) -> str:
    return next((domain for domain, fields in DOMAINS.items() if field in fields), "Physical Sciences")


def topic_for(mag_field: str, number: int) -> dict:
    """An OpenAlex topic whose field (or subfield) maps to ``mag_field`` (the inverse of the documented table)."""
    subfield = next((s for s, f in SUBFIELD_TO_MAG.items() if f == mag_field), None)
    if subfield is not None:
        field = "Social Sciences" if mag_field in ("Geography", "Political Science") else "Arts and Humanities"
    else:
        field = next(f for f, m in FIELD_TO_MAG.items() if m == mag_field)
        subfield = f"General {field}"
    return {
        "id": f"https://openalex.org/T{10000 + number}",
        "display_name": f"Topic {number} of {field}",
        "score": 0.9,
        "subfield": {"id": f"https://openalex.org/subfields/{2000 + number}", "display_name": subfield},
        "field": {"id": f"https://openalex.org/fields/{number % 36}", "display_name": field},
        "domain": {"id": "https://openalex.org/domains/1", "display_name": _domain(field)},
    }


def record_2026(work: Work, index: int, references: list[int] = ()) -> dict:
    """A work as the 2026 snapshot gives it: topics always, level-0 concepts for every third work only."""
    record = openalex_record(work, references)
    topics = [topic_for(field, index * 3 + n) for n, field in enumerate(work.fields)]
    record.update(primary_topic=topics[0] if topics else None, topics=topics, updated_date="2026-03-15T00:00:00")
    if index % 3:
        record["concepts"] = []
    elif work.fields and work.fields[0] == "Computer Science":
        record["concepts"][0]["display_name"] = "Computer science"  # OpenAlex's casing of the MAG field
    return record


def write_parquet_part(path: Path, records: list[dict]) -> Path:
    """A Parquet part (snappy) of the columns the catalogue reads, nested as in the JSON records."""
    path.parent.mkdir(parents=True, exist_ok=True)
    columns = {name: [record.get(name) for record in records] for name in WORK_COLUMNS}
    pq.write_table(pa.table(columns), path, compression="snappy")
    return path


def works_2026(seed: int, count: int) -> list[Work]:
    """Works only the 2026 snapshot holds (ids and pseudo-word titles apart from the other sample works, so the
    catalogue's older works and their resolution stay as they were)."""
    return [replace(filler_work(seed + 2026, index), mag_id=3_600_000_000 + index) for index in range(count)]


def _manifest(folder: Path, parts: list[tuple[Path, int]]) -> None:
    entries = [
        {
            "url": f"s3://openalex/{path.relative_to(folder.parent.parent).as_posix()}",
            "meta": {"content_length": path.stat().st_size, "record_count": count},
        }
        for path, count in parts
    ]
    meta = {
        "content_length": sum(e["meta"]["content_length"] for e in entries),
        "record_count": sum(c for _, c in parts),
    }
    (folder / "manifest.json").write_text(json.dumps({"entries": entries, "meta": meta}, indent=1) + "\n")


def _short(url: str) -> str:
    return url.rsplit("/", 1)[-1]


def _write_jsonl(path: Path, records: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.GzipFile(path, "wb", mtime=0) as out:  # the same bytes on every run
        out.writelines(json.dumps(record).encode() + b"\n" for record in records)
    return path


def write_openalex_2026_snapshot(
    root: str | Path, works: Iterable[Work], references: list[tuple[int, int]] = (), per_part: int = 10
) -> dict:
    """The snapshot under ``root`` (an ``openalex/`` folder). Faults: the last part of ``updated_date=2026-03-15``
    holds one work fewer than its manifest entry counts (cut from both copies, as a cut download of each would);
    the first work, with the mistyped fields, sits in a later folder that only the JSON-lines copy has yet. Returns
    what a test checks: the ids written, the one cut, the short part's name, the mistyped work."""
    root = Path(root)
    cited_by: dict[int, list[int]] = {}
    for citing, cited in references:
        cited_by.setdefault(citing, []).append(cited)
    records = [record_2026(work, index, cited_by.get(work.mag_id, [])) for index, work in enumerate(works)]
    mistyped, records = records[0], records[1:]
    mistyped.update(referenced_works="https://openalex.org/W1", cited_by_count="12")  # a damaged export
    chunks = [records[i : i + per_part] for i in range(0, len(records), per_part)]
    cut = chunks[-1].pop()  # listed in the manifest, missing from the part
    jsonl, parquet = [], []
    for number, chunk in enumerate(chunks):
        count = len(chunk) + (1 if number == len(chunks) - 1 else 0)
        name = f"{UPDATED}/part_{number:04d}"
        jsonl.append((_write_jsonl(root / JSONL_WORKS / f"{name}.gz", chunk), count))
        parquet.append((write_parquet_part(root / PARQUET_WORKS / f"{name}.parquet", chunk), count))
    jsonl.append((_write_jsonl(root / JSONL_WORKS / LATER / "part_0000.gz", [mistyped]), 1))
    _manifest(root / JSONL_WORKS.rsplit("/", 1)[0], jsonl)
    _manifest(root / PARQUET_WORKS.rsplit("/", 1)[0], parquet)
    written = [_short(r["id"]) for r in (*(r for chunk in chunks for r in chunk), mistyped)]
    edges = [(_short(r["id"]), _short(cited)) for chunk in chunks for r in chunk for cited in r["referenced_works"]]
    return {
        "written": written,
        "edges": edges,  # those written (the mistyped work's are not)
        "edges_in_catalogue": [edge for edge in edges if edge[1] in written],
        "cut": _short(cut["id"]),
        "short_part": parquet[-1][0].name,
        "mistyped": _short(mistyped["id"]),
    }
