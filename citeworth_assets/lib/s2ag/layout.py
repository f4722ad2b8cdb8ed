"""Finding S2AG (Semantic Scholar Academic Graph datasets) files in a dump root.

The datasets API hands out a release as opaque shard files per dataset; the dump root keeps them as::

    <dumps>/s2ag/<release>/<dataset>/<file>[.gz]      dataset: s2orc, s2orc_v2, papers, abstracts

Every ``s2orc`` or ``s2orc_v2`` file is one partition of ``s2orc_shards`` (the partitions of the 2020 shards), so
every S2ORC-side asset runs on it unchanged. The ``papers`` and ``abstracts`` files of the release are staged once
into the lake (:mod:`.staging`) and joined to each partition by corpus id. As for the 2020 shards, discovery only
lists folders and stats files (no file is opened or hashed), and a file younger than ``settle_seconds`` is taken to
be still growing.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

from citeworth_assets.lib.dump_root import find_by_key, outside_root

S2AG_FOLDER = "s2ag"
FULL_TEXT_DATASETS = ("s2orc", "s2orc_v2")
METADATA_DATASETS = ("papers", "abstracts")
TEMPORARY = re.compile(r"(\.(tmp|part|partial|crdownload|download)|~)$", re.IGNORECASE)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def file_stem(name: str) -> str:
    """A shard file's name without the compression and JSON-lines suffixes."""
    return re.sub(r"(\.jsonl?)?(\.gz)?$", "", name, flags=re.IGNORECASE)


def partition_key(release: str, dataset: str, name: str) -> str:
    """The ``s2orc_shards`` key of a full-text file: ``s2ag_<release>_<dataset>_<file stem>`` in [a-z0-9_] only.

    It depends only on the three names, so it is stable across listings; the ``s2ag_`` prefix keeps it apart from
    the keys of 2020 shards (``<release>_<index>``)."""
    return "_".join(part for part in ("s2ag", _slug(release), dataset, _slug(file_stem(name))) if part)


def release_key(release: str) -> str:
    """The lake partition key of a release's staged ``papers`` and ``abstracts``."""
    return _slug(release) or "release"


@dataclass(frozen=True)
class S2agFile:
    """One full-text file of an S2AG release: a partition of ``s2orc_shards``."""

    release: str
    dataset: str  # s2orc or s2orc_v2
    path: Path
    metadata_files: tuple[Path, ...] = ()  # the release's papers and abstracts files (their identity is part of ours)

    @property
    def key(self) -> str:
        return partition_key(self.release, self.dataset, self.path.name)

    @property
    def index(self) -> str:
        """Where the file lies in its release (what a 2020 shard's index says)."""
        return f"{self.dataset}/{self.path.name}"

    @property
    def input_files(self) -> tuple[Path, ...]:
        return (self.path, *self.metadata_files)

    def signature(self) -> list[int]:
        """Sizes and modification times of the file and of the release's metadata files: a change means rebuild."""
        values = []
        for path in self.input_files:
            stat = path.stat()
            values += [stat.st_size, int(stat.st_mtime)]
        return values


def _files(folder: Path, dumps: Path, refused: list[str]) -> list[os.DirEntry]:
    """The shard files of one dataset folder, by name; links out of the dump root go to ``refused``."""
    if not folder.is_dir():
        return []
    found = []
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.name.startswith(".") or TEMPORARY.search(entry.name) or not entry.is_file():
                continue
            if entry.is_symlink() and outside_root(Path(entry.path), folder, dumps):
                refused.append(f"{entry.path} is a link to {Path(entry.path).resolve()}, outside the dump root")
                continue
            found.append(entry)
    return sorted(found, key=lambda entry: entry.name)


def _settled(entry: os.DirEntry, now: float, settle_seconds: float) -> bool:
    stat = entry.stat()
    return stat.st_size > 0 and now - stat.st_mtime >= settle_seconds


def releases(dumps: Path) -> list[str]:
    root = Path(dumps) / S2AG_FOLDER
    if not root.is_dir():
        return []
    with os.scandir(root) as entries:
        return sorted(e.name for e in entries if e.is_dir() and not e.name.startswith("."))


def metadata_files(dumps: Path, release: str, dataset: str) -> list[Path]:
    """The release's files of ``papers`` or ``abstracts`` (links out of the dump root left out)."""
    return [Path(entry.path) for entry in _files(Path(dumps) / S2AG_FOLDER / release / dataset, Path(dumps), [])]


@dataclass(frozen=True)
class Discovery:
    """What the dump root's S2AG folder holds: the settled full-text files, and what is worth a warning."""

    files: list[S2agFile]
    problems: list[str]  # links refused, empty files
    without_papers: list[str]  # releases with full texts but no papers files (built from the full text alone)


def discover(dumps: Path, settle_seconds: float = 0.0, now: float | None = None) -> Discovery:
    """Every settled ``s2orc``/``s2orc_v2`` file of every release under ``<dumps>/s2ag``, by release and name."""
    now = time.time() if now is None else now
    dumps = Path(dumps)
    files, problems, without_papers = [], [], []
    for release in releases(dumps):
        folder = dumps / S2AG_FOLDER / release
        metadata = tuple(
            Path(entry.path)
            for dataset in METADATA_DATASETS
            for entry in _files(folder / dataset, dumps, problems)
            if _settled(entry, now, settle_seconds)
        )
        found = []
        for dataset in FULL_TEXT_DATASETS:
            for entry in _files(folder / dataset, dumps, problems):
                if entry.stat().st_size == 0:
                    problems.append(f"{entry.path} is empty")
                elif _settled(entry, now, settle_seconds):
                    found.append(S2agFile(release, dataset, Path(entry.path), metadata))
        if found and not any(path.parent.name == "papers" for path in metadata):
            without_papers.append(release)
        files += found
    return Discovery(files, problems, without_papers)


def discover_files(dumps: Path, settle_seconds: float = 0.0, now: float | None = None) -> list[S2agFile]:
    return discover(dumps, settle_seconds, now).files


def find_file(dumps: Path, key: str) -> S2agFile:
    """The full-text file of a partition key; a clear error when it is not in the dump root."""
    expected = "s2ag/<release>/s2orc/<file>.gz or s2ag/<release>/s2orc_v2/<file>.gz"
    return find_by_key(discover_files(dumps), key, "S2AG file", Path(dumps), expected)
