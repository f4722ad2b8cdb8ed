"""Finding S2ORC shards in a dump root.

The 20200705v1 release lays a shard out as two files with the same index::

    <dumps>/<release>/full/metadata/metadata_<i>.jsonl.gz
    <dumps>/<release>/full/pdf_parses/pdf_parses_<i>.jsonl.gz

A shard is ready when both files exist and neither is still being written. Downloads and copies
either write under a temporary name (``.tmp``, ``.part``, ...; ignored here, since the name does not
match) or grow the final file in place; a file whose modification time is younger than
``settle_seconds`` is taken to be still growing. Discovery only lists directories and stats files,
so it stays fast on a dump of thousands of shards.
"""

from __future__ import annotations

import gzip
import os
import re
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from citeworth_assets.lib.dump_root import find_by_key, outside_root

SHARD_FILE = re.compile(r"^(metadata|pdf_parses)_(\d+)\.jsonl(\.gz)?$")
PARTITION_KEY = re.compile(r"^[a-z0-9_]+$")


def partition_key(release: str, index: int) -> str:
    """A Dagster partition key for a shard: lower-case letters, digits and underscores only."""
    return f"{re.sub(r'[^a-z0-9]+', '_', release.lower()).strip('_')}_{index}"


@dataclass(frozen=True)
class Shard:
    release: str
    index: int
    metadata: Path
    pdf_parses: Path

    @property
    def key(self) -> str:
        return partition_key(self.release, self.index)

    def signature(self) -> list[int]:
        """Sizes and modification times of both files: a change means the shard was replaced."""
        a, b = self.metadata.stat(), self.pdf_parses.stat()
        return [a.st_size, int(a.st_mtime), b.st_size, int(b.st_mtime)]


def _shard_files(folder: Path, kind: str, dumps: Path, refused: dict[int, dict[str, str]]) -> dict[int, os.DirEntry]:
    """Shard files of one kind by index; a symlink leading out of the folder and the dump root, or a shard name that
    is a directory (an unpacked download, a copy gone wrong) or another non-file, goes to ``refused`` (never read,
    its shard reported by :func:`incomplete_shards`)."""
    files = {}
    if not folder.is_dir():
        return files
    with os.scandir(folder) as entries:
        for entry in entries:
            match = SHARD_FILE.match(entry.name)
            if match and match.group(1) == kind and not entry.is_file():
                what = "a directory" if entry.is_dir() else "not a regular file"
                refused.setdefault(int(match.group(2)), {}).setdefault(kind, f"{entry.name} is {what}, not a file")
            elif match and match.group(1) == kind:
                index = int(match.group(2))
                if entry.is_symlink() and outside_root(Path(entry.path), folder, dumps):
                    target = Path(entry.path).resolve()
                    refused.setdefault(index, {})[kind] = f"{entry.name} is a link to {target}, outside the dump root"
                    continue
                # Prefer the gzipped file when both forms of a shard are present.
                if index not in files or entry.name.endswith(".gz"):
                    files[index] = entry
    for index, kinds in refused.items():  # a refused entry is never replaced by the other form of its file
        if kind in kinds:
            files.pop(index, None)
    return files


def _settled(entry: os.DirEntry, now: float, settle_seconds: float) -> bool:
    stat = entry.stat()
    return stat.st_size > 0 and now - stat.st_mtime >= settle_seconds


def _release_files(dumps: Path) -> Iterator[tuple[str, dict[str, dict[int, os.DirEntry]], dict[int, dict]]]:
    """Each release folder of ``dumps`` (sorted) with its metadata and pdf_parses files by shard index, and the
    shard files refused as links out of the dump root (index -> kind -> problem)."""
    if not dumps.is_dir():
        return
    with os.scandir(dumps) as releases:
        release_dirs = sorted(entry.name for entry in releases if entry.is_dir() and not entry.name.startswith("."))
    for release in release_dirs:
        full, refused = dumps / release / "full", {}
        files = {kind: _shard_files(full / kind, kind, dumps, refused) for kind in ("metadata", "pdf_parses")}
        yield release, files, refused


def discover_shards(dumps: Path, settle_seconds: float = 0.0, now: float | None = None) -> list[Shard]:
    """Ready shards under every release folder of ``dumps``, ordered by release and index."""
    now = time.time() if now is None else now
    shards = []
    for release, files, _refused in _release_files(dumps):
        metadata, parses = files["metadata"], files["pdf_parses"]
        for index in sorted(metadata.keys() & parses.keys()):
            if _settled(metadata[index], now, settle_seconds) and _settled(parses[index], now, settle_seconds):
                shards.append(Shard(release, index, Path(metadata[index].path), Path(parses[index].path)))
    return shards


@dataclass(frozen=True)
class IncompleteShard:
    """A shard that cannot be built: one of its two files is missing or holds no lines (a half shard)."""

    release: str
    index: int
    key: str
    problem: str

    def __str__(self) -> str:
        return f"{self.key}: {self.problem}"


EMPTY_PROBE_BYTES = 4096  # a compressed file this small is opened to see whether it holds any line at all


def _empty(entry: os.DirEntry) -> bool:
    """True for a file without a single non-blank byte of content (0 bytes, or a gzip of nothing)."""
    size = entry.stat().st_size
    if size == 0:
        return True
    if size > EMPTY_PROBE_BYTES:
        return False
    with open(entry.path, "rb") as f:
        head = f.read()
    if head[:2] == b"\x1f\x8b":
        try:
            head = gzip.decompress(head)
        except (OSError, EOFError, zlib.error):
            return False  # damaged, not empty: the reader reports it
    return not head.strip()


def incomplete_shards(dumps: Path, settle_seconds: float = 0.0, now: float | None = None) -> list[IncompleteShard]:
    """Half shards under ``dumps``: a settled file whose partner is missing, or a settled file that is empty; and
    shards with a file that is a symlink leading out of its folder and the dump root, or a directory (never read).

    :func:`discover_shards` leaves these out; they are listed here so that no shard is skipped in silence.
    A file still being written (younger than ``settle_seconds``) is not a problem yet.
    """
    now = time.time() if now is None else now
    problems = []
    for release, files, refused in _release_files(dumps):
        for index in sorted(files["metadata"].keys() | files["pdf_parses"].keys() | refused.keys()):
            found = {kind: files[kind].get(index) for kind in files}
            if any(entry is not None and now - entry.stat().st_mtime < settle_seconds for entry in found.values()):
                continue
            reasons = []
            for kind, entry in found.items():
                if entry is None:
                    reasons.append(refused.get(index, {}).get(kind) or f"{kind}_{index}.jsonl.gz is missing")
                elif _empty(entry):
                    reasons.append(f"{entry.name} is empty")
            if reasons:
                problems.append(IncompleteShard(release, index, partition_key(release, index), "; ".join(reasons)))
    return problems


def find_shard(dumps: Path, key: str) -> Shard:
    """The shard of a partition key; a clear error when it is not in the dump root."""
    expected = "<release>/full/metadata/metadata_<i>.jsonl.gz and <release>/full/pdf_parses/pdf_parses_<i>.jsonl.gz"
    return find_by_key(discover_shards(dumps), key, "shard", dumps, expected)
