"""An OpenAlex works snapshot on disk: which part files to read, in which layout, checked against the manifest.

Layouts (the ``openalex/`` folder of the dump root is the snapshot's root, or its ``works`` folder):

* 2026: ``data/parquet/works/updated_date=*/part_*.parquet`` and ``data/jsonl/works/updated_date=*/part_*.gz``,
  two complete copies of the same works (OpenAlex's snapshot format page). Where a part is in both, the Parquet
  file is read (columns straight into Arrow, no JSON parsing) and the JSON-lines one left, with a note saying so;
  a part only in JSON lines (a Parquet copy not yet complete) is read from there.
* before 2026: ``works/updated_date=*/part_*.gz`` (also read when a 2026 copy is present: a work in both keeps the
  version of the later ``updated_date`` folder, as everywhere in the catalogue).

Manifests are Redshift manifests: ``{"entries": [{"url": ".../works/updated_date=D/part_N.gz", "meta":
{"content_length": bytes, "record_count": records}}], "meta": {...}}``, one per format for all entities
(``data/<format>/manifest.json``) or one per entity (``works/manifest``). Where one lists a part, the records
read from it are compared with its count when the part has been read: a part short of its count (a download cut
off, a file replaced) is a counted ``short_part`` issue naming the file. A snapshot folder without any works part
is an error naming the layouts looked for, never an empty catalogue.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import orjson

from citeworth_assets.lib.dump_root import followed_out
from citeworth_assets.lib.jsonl import iter_json_lines
from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.read_issues import IssueLog, ReadIssue

pa = lazy_module("pyarrow")
pq = lazy_module("pyarrow.parquet")

PARQUET_WORKS, JSONL_WORKS, OLD_WORKS = "data/parquet/works", "data/jsonl/works", "works"
PARQUET_PARTS, GZIP_PARTS = "updated_date=*/part_*.parquet", "updated_date=*/part_*.gz"
LAYOUTS = (
    f"{PARQUET_WORKS}/{PARQUET_PARTS}",
    f"{JSONL_WORKS}/{GZIP_PARTS}",
    f"{OLD_WORKS}/{GZIP_PARTS}",
)
# what the catalogue takes from a work: the columns read from a Parquet part
WORK_COLUMNS = (
    "id",
    "doi",
    "title",
    "display_name",
    "publication_year",
    "cited_by_count",
    "ids",
    "authorships",
    "concepts",
    "primary_topic",
    "topics",
    "locations",
    "referenced_works",
)
NESTED = frozenset({"ids", "authorships", "concepts", "primary_topic", "topics", "locations", "referenced_works"})
# the leaves of the nested Parquet columns that the catalogue reads: the rest (institutions, affiliations, scores...)
# is dropped in Arrow before rows become Python objects, which otherwise costs more than the whole JSON parse
_NAME = {"display_name": None}
LEAVES = {
    "ids": {"mag": None},
    "authorships": {"author": _NAME, "raw_author_name": None},
    "concepts": {"display_name": None, "level": None},
    "primary_topic": {"field": _NAME, "subfield": _NAME, "domain": _NAME},
    "topics": {"field": _NAME, "subfield": _NAME, "domain": _NAME},
    "locations": {"landing_page_url": None},
}
PARQUET_BATCH_ROWS = 10_000


class SnapshotError(ValueError):
    """An OpenAlex folder that holds no works part in any known layout."""


@dataclass(frozen=True)
class SnapshotRecord:
    path: Path
    number: int  # line of a JSON-lines part, row (1-based) of a Parquet part
    record: dict


def _works_folders(root: Path) -> list[tuple[Path, str]]:
    """(folder, part pattern) of every layout present, the Parquet copy before the JSON-lines one."""
    if root.name == "works" and not (root / "works").is_dir():
        return [(root, GZIP_PARTS), (root, PARQUET_PARTS)]
    return [(root / PARQUET_WORKS, PARQUET_PARTS), (root / JSONL_WORKS, GZIP_PARTS), (root / OLD_WORKS, GZIP_PARTS)]


def _copy_key(part: Path) -> tuple[str, str]:
    """``(updated_date folder, part_NNNN)``: the same part in the JSON-lines and the Parquet copy."""
    return part.parent.name, part.name.split(".", 1)[0]


def snapshot_parts(snapshot: str | Path, log: IssueLog) -> list[Path]:
    """The part files to read, sorted by layout then name: of the 2026 copies, each part's Parquet file where there is
    one and its JSON-lines file otherwise (a Parquet copy still being downloaded), with a note of the JSON-lines
    parts left for their Parquet copy; then the older layout's parts. A part that is a symlink leading out of its
    folder and the snapshot is reported and left out (:func:`followed_out`)."""
    root = Path(snapshot)
    found: dict[Path, list[Path]] = {}
    for folder, pattern in _works_folders(root):
        parts = sorted(folder.glob(pattern)) if folder.is_dir() else []
        if parts:
            found.setdefault(folder, []).extend(parts)
    parquet, jsonl = root / PARQUET_WORKS, root / JSONL_WORKS
    if parquet in found and jsonl in found:
        copied = {_copy_key(part) for part in found[parquet]}
        left = [part for part in found[jsonl] if _copy_key(part) in copied]
        found[jsonl] = [part for part in found[jsonl] if _copy_key(part) not in copied]
        if left:
            message = f"{len(left)} JSON-lines parts not read: their Parquet copies are read instead"
            log.add(ReadIssue(str(jsonl), None, None, "copy_not_read", message))
    parts = [part for folder_parts in found.values() for part in folder_parts]
    return [part for part in parts if not followed_out(part, part.parent, root, log)]


def require_parts(snapshot: str | Path, log: IssueLog) -> list[Path]:
    """:func:`snapshot_parts`, raising :class:`SnapshotError` (naming the layouts) when there is none."""
    parts = snapshot_parts(snapshot, log)
    if not parts:
        raise SnapshotError(
            f"OpenAlex snapshot {snapshot}: no works part found; looked for "
            + ", ".join(f"<snapshot>/{layout}" for layout in LAYOUTS)
        )
    return parts


def _manifest_key(url: str) -> str | None:
    """``works/updated_date=D/part_N.ext`` of a manifest entry's URL (s3:// or a local path)."""
    pieces = url.replace("\\", "/").split("/")
    return "/".join(pieces[-3:]) if len(pieces) >= 3 and pieces[-3] == "works" else None


def _part_key(part: Path) -> str:
    return f"works/{part.parent.name}/{part.name}"


def _manifest_paths(root: Path, part: Path) -> list[Path]:
    """Manifests that may list ``part``: its format's combined manifest and the works folder's own."""
    works = part.parent.parent
    return [works.parent / "manifest.json", works / "manifest", works / "manifest.json"]


def read_manifests(root: Path, parts: list[Path], log: IssueLog) -> dict[Path, dict]:
    """``{part: {content_length, record_count}}`` of the parts that a manifest present lists. A manifest that does not
    parse is reported and ignored; so is an entry without counts."""
    listed: dict[Path, dict] = {}
    seen: dict[Path, dict[str, dict]] = {}
    for part in parts:
        for manifest in _manifest_paths(root, part):
            if manifest not in seen:
                seen[manifest] = _manifest_entries(manifest, log) if manifest.is_file() else {}
            meta = seen[manifest].get(_part_key(part))
            if meta is not None:
                listed[part] = meta
                break
    return listed


def _manifest_entries(path: Path, log: IssueLog) -> dict[str, dict]:
    try:
        data = json.loads(path.read_bytes())
        entries = data["entries"]
        if not isinstance(entries, list):
            raise TypeError("entries is not a list")
    except (OSError, ValueError, KeyError, TypeError) as error:
        log.add(ReadIssue(str(path), None, None, "bad_manifest", f"manifest not read: {error}"))
        return {}
    found = {}
    for index, entry in enumerate(entries):
        url = entry.get("url") if isinstance(entry, dict) else None
        meta = entry.get("meta") if isinstance(entry, dict) else None
        key = _manifest_key(url) if isinstance(url, str) else None
        count = meta.get("record_count") if isinstance(meta, dict) else None
        if key is None:
            continue  # another entity's part, in a combined manifest
        if not isinstance(count, int) or isinstance(count, bool):
            log.add(ReadIssue(str(path), None, None, "bad_manifest", f"entry {index} ({url}) has no record_count"))
            continue
        found[key] = meta
    return found


def check_part(part: Path, records: int, meta: dict | None, log: IssueLog) -> None:
    """Compare what was read from a part with its manifest entry (when one lists it)."""
    if meta is None:
        return
    expected = meta["record_count"]
    if records < expected:
        message = f"{records} records read, the manifest lists {expected}: {expected - records} missing"
        log.add(ReadIssue(str(part), None, None, "short_part", message))
    elif records > expected:
        message = f"{records} records read, the manifest lists only {expected}"
        log.add(ReadIssue(str(part), None, None, "manifest_count_mismatch", message))
    length = meta.get("content_length")
    if isinstance(length, int) and not isinstance(length, bool) and length != part.stat().st_size:
        message = f"{part.stat().st_size} bytes, the manifest lists {length}"
        log.add(ReadIssue(str(part), None, None, "manifest_size_mismatch", message))


def _parquet_records(part: Path, log: IssueLog) -> Iterator[SnapshotRecord]:
    """Rows of a Parquet part as work records (only the columns the catalogue takes), batch by batch. A nested
    column stored as JSON text (as some Parquet exports of the snapshot do) is decoded value by value; a value that
    does not decode stays text and is then the reader's ``bad_type``."""
    try:
        parquet = pq.ParquetFile(part)
        schema = parquet.schema_arrow
        columns = [name for name in WORK_COLUMNS if name in schema.names]
        as_text = [n for n in columns if n in NESTED and pa.types.is_string(schema.field(n).type)]
        number = 0
        for batch in parquet.iter_batches(PARQUET_BATCH_ROWS, columns=columns):
            pruned = [_pruned(batch.column(name), LEAVES.get(name)) for name in batch.schema.names]
            for record in pa.RecordBatch.from_arrays(pruned, names=batch.schema.names).to_pylist():
                number += 1
                for name in as_text:
                    record[name] = _json_text(record[name])
                yield SnapshotRecord(part, number, record)
    except (OSError, ValueError) as error:  # not Parquet, truncated, corrupt page (ArrowInvalid is a ValueError)
        log.add(ReadIssue(str(part), None, None, "bad_parquet", f"Parquet part not read to its end: {error}"))


def _pruned(array: pa.Array, leaves: dict | None) -> pa.Array:
    """``array`` with only the struct fields named in ``leaves`` (through lists), nulls kept; any other type as is."""
    if leaves is None:
        return array
    kind = array.type
    if pa.types.is_list(kind) or pa.types.is_large_list(kind):
        values = _pruned(array.values, leaves)
        return type(array).from_arrays(array.offsets, values, mask=array.is_null() if array.null_count else None)
    if not pa.types.is_struct(kind):
        return array
    children = {kind.field(i).name: child for i, child in enumerate(array.flatten())}
    names = [name for name in leaves if name in children]
    fields = [_pruned(children[name], leaves[name]) for name in names]
    if not names:
        return pa.nulls(len(array), pa.struct([]))
    return pa.StructArray.from_arrays(fields, names=names, mask=array.is_null() if array.null_count else None)


def _json_text(value):
    if isinstance(value, str) and value[:1] in ("[", "{"):
        try:
            return orjson.loads(value)
        except orjson.JSONDecodeError:
            return value
    return value


def iter_snapshot_records(snapshot: str | Path, log: IssueLog) -> Iterator[SnapshotRecord]:
    """Every work record of a snapshot, part by part, streaming; each part's count is checked against the manifest
    once the part is read (:func:`check_part`). Raises :class:`SnapshotError` when there is no part."""
    root = Path(snapshot)
    parts = require_parts(root, log)
    manifests = read_manifests(root, parts, log)
    for part in parts:
        records = 0
        if part.suffix == ".parquet":
            source = _parquet_records(part, log)
        else:
            source = (SnapshotRecord(part, e.number, e.record) for e in iter_json_lines(part, log, repair=True))
        for record in source:
            records += 1
            yield record
        check_part(part, records, manifests.get(part), log)
