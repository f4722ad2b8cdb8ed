"""Finding the arXiv and catalogue dumps under the dump root.

Layout (one folder per source, beside the S2ORC release folders)::

    <dumps>/unarxive-2020/<name>/            a folder of <arxiv id>.txt files with refs.db beside them
    <dumps>/unarxive-2020/<name>.tar[.gz]    or a tarball of the same (.tgz, .tar.bz2, .tar.xz too)
    <dumps>/unarxive-2022/<name>.jsonl[.gz]  unarXive 2022 and later, one paper per line
    <dumps>/mag/Papers.txt ...               the MAG's headerless TSV files (optionally gzipped)
    <dumps>/openalex/data/parquet/works/updated_date=*/part_*.parquet   an OpenAlex works snapshot, 2026 layout
    <dumps>/openalex/data/jsonl/works/updated_date=*/part_*.gz          (either copy; Parquet read when both are)
    <dumps>/openalex/works/updated_date=*/part_*.gz                     the layout before 2026
    <dumps>/arxiv-metadata/*.json[l][.gz]    arXiv's metadata snapshot (titles of arXiv ids), optional

arXiv's LaTeX source dumps (``<dumps>/arxiv-src/arXiv_src_YYMM_NNN.tar``) are converted into unarXive 2022
files under the data root (``<data>/converted/unarxive-2022/<name>.latex.jsonl.gz``, Saier 2019 §4.2.3);
those are found here too when the converted root is given, and ingested like any unarXive 2022 file.

Each unarXive folder, tarball or JSON-lines file is one :class:`DumpFile` and one partition. A dump file
is ready once it (every file of a folder) is older than ``settle_seconds``, as with S2ORC shards. Only
directory listings and stats: never reads or hashes a file.

Names that normalise to the same partition key (``Coll-X.jsonl``, ``coll_x.jsonl``) are all kept: the first
by name keeps the key, each other one gets a suffix from a hash of its name (``..._coll_x_3f2a9c1d``), and
each knows the names it shares its key with, so that its ingestion reports it. The same dump in two forms
(``x.jsonl`` and ``x.jsonl.gz``) is read once, from the compressed file, and the other one is reported.
"""

from __future__ import annotations

import hashlib
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from citeworth_assets.lib.dump_root import find_by_key, followed_out
from citeworth_assets.lib.jsonl import IssueLog, ReadIssue
from citeworth_assets.lib.mag import tsv
from citeworth_assets.lib.mag.openalex_snapshot import snapshot_parts

UNARXIVE_2020, UNARXIVE_2022 = "unarxive-2020", "unarxive-2022"
CONVERTED_DIR = "converted"
CONVERTED_SUFFIX = ".latex.jsonl.gz"  # converted from LaTeX sources: no links shipped, the resolver's are used
RELEASES = (UNARXIVE_2020, UNARXIVE_2022)
MAG_DIR, OPENALEX_DIR, ARXIV_METADATA_DIR = "mag", "openalex", "arxiv-metadata"
TARBALL = re.compile(r"\.(tar|tar\.gz|tgz|tar\.bz2|tbz2|tar\.xz|txz)$")
JSON_LINES = re.compile(r"\.jsonl(\.gz)?$")
METADATA_FILE = re.compile(r"\.jsonl?(\.gz)?$")


def _stem(name: str) -> str:
    return JSON_LINES.sub("", TARBALL.sub("", name))


def dump_key(release: str, name: str) -> str:
    """A partition key (``[a-z0-9_]``): ``unarxive_2022_arxiv_src_2212_086_first20``."""
    return re.sub(r"[^a-z0-9]+", "_", f"{release}_{_stem(name)}".lower()).strip("_")


@dataclass(frozen=True)
class DumpFile:
    """One unarXive input: a folder or tarball (2020) or a JSON-lines file (2022+)."""

    release: str
    path: Path
    suffix: str = ""  # set when another file's name normalises to the same key
    shares_key_with: tuple[str, ...] = field(default=(), compare=False)
    shadows: tuple[str, ...] = field(default=(), compare=False)  # the same dump in another form, not read

    @property
    def key(self) -> str:
        return dump_key(self.release, self.path.name) + (f"_{self.suffix}" if self.suffix else "")

    def _stats(self) -> list[os.stat_result]:
        if not self.path.is_dir():
            return [self.path.stat()]
        with os.scandir(self.path) as entries:
            return [entry.stat() for entry in entries if entry.is_file() and not entry.name.startswith(".")]

    def signature(self) -> list[int]:
        """Size and newest modification time (and file count of a folder): a change means new input."""
        stats = self._stats()
        return [len(stats), sum(s.st_size for s in stats), max((int(s.st_mtime) for s in stats), default=0)]

    def settled(self, settle_seconds: float, now: float) -> bool:
        stats = self._stats()
        return (
            bool(stats) and sum(s.st_size for s in stats) > 0 and all(now - s.st_mtime >= settle_seconds for s in stats)
        )


def _name_hash(name: str) -> str:
    return hashlib.sha1(name.encode("utf-8", "surrogateescape")).hexdigest()[:8]


def _disambiguated(release: str, entries: list[Path]) -> list[DumpFile]:
    """One DumpFile per entry of a release folder; entries whose names share a key get distinct keys."""
    by_stem: dict[str, list[Path]] = {}
    for entry in entries:  # the same dump in two forms: the compressed one is read
        by_stem.setdefault(_stem(entry.name), []).append(entry)
    chosen = {}
    for stem, forms in by_stem.items():
        forms.sort(key=lambda p: (not p.name.endswith(".gz"), p.name))
        chosen[stem] = (forms[0], tuple(p.name for p in forms[1:]))
    by_key: dict[str, list[str]] = {}
    for stem in sorted(chosen):
        by_key.setdefault(dump_key(release, chosen[stem][0].name), []).append(stem)
    dumps = []
    for stems in by_key.values():
        names = [chosen[stem][0].name for stem in stems]
        for index, stem in enumerate(stems):
            entry, shadows = chosen[stem]
            others = tuple(n for n in names if n != entry.name)
            suffix = _name_hash(entry.name) if index else ""
            dumps.append(DumpFile(release, entry, suffix, others, shadows))
    return dumps


def _candidates(dumps: Path, release: str) -> list[DumpFile]:
    folder = dumps / release
    if not folder.is_dir():
        return []
    entries = []
    for entry in sorted(folder.iterdir()):
        if entry.name.startswith("."):
            continue
        if release == UNARXIVE_2020:
            usable = (entry.is_dir() and any(entry.glob("*.txt"))) or (entry.is_file() and TARBALL.search(entry.name))
        else:
            usable = entry.is_file() and JSON_LINES.search(entry.name)
        if usable:
            entries.append(entry)
    return sorted(_disambiguated(release, entries), key=lambda dump: dump.key)


def dump_issues(dump: DumpFile) -> list[ReadIssue]:
    """What its ingestion reports about a dump file's name: a key shared with other names, a form not read."""
    issues = []
    if dump.shares_key_with:
        issues.append(
            ReadIssue(
                str(dump.path),
                None,
                None,
                "partition_key_collision",
                f"the name normalises to the same key as {', '.join(dump.shares_key_with)}; both are read, "
                f"this one as partition {dump.key}",
            )
        )
    issues += [
        ReadIssue(str(dump.path.parent / name), None, None, "same_dump_in_two_forms", f"not read: {dump.path.name} is")
        for name in dump.shadows
    ]
    return issues


def is_converted(dump: DumpFile) -> bool:
    """Whether a dump file was converted here from LaTeX sources (it ships no MAG/OpenAlex links)."""
    return dump.path.name.endswith(CONVERTED_SUFFIX)


def converted_root(data: Path) -> Path:
    """Where converted LaTeX source dumps are written, laid out like a dump root (``unarxive-2022/``)."""
    return data / CONVERTED_DIR


def discover_dump_files(
    dumps: Path,
    releases: tuple[str, ...] = RELEASES,
    settle_seconds: float = 0.0,
    now: float | None = None,
    converted: Path | None = None,
) -> list[DumpFile]:
    """Ready unarXive dump files of the given releases, ordered by release and name; with ``converted``, the
    converted LaTeX source dumps under it as well (after the dump root's files)."""
    now = time.time() if now is None else now
    found = [d for release in releases for d in _candidates(dumps, release) if d.settled(settle_seconds, now)]
    if converted is not None and UNARXIVE_2022 in releases:
        found += _candidates(converted, UNARXIVE_2022)
    return found


def find_dump_file(dumps: Path, key: str, converted: Path | None = None) -> DumpFile:
    """The dump file of a partition key; a clear error when it is not under the dump root."""
    expected = f"{UNARXIVE_2020}/<folder or tarball> or {UNARXIVE_2022}/<name>.jsonl[.gz]"
    return find_by_key(discover_dump_files(dumps, converted=converted), key, "arXiv dump file", dumps, expected)


def catalogue_files(dumps: Path) -> list[Path]:
    """Every input file of the works catalogue: MAG TSV files, the OpenAlex parts that are read (any layout:
    :func:`~citeworth_assets.lib.mag.openalex_snapshot.snapshot_parts`), arXiv metadata files."""
    mag = dumps / MAG_DIR
    names = {spec.name for spec in tsv.MAG_FILES} | {f"{spec.name}.gz" for spec in tsv.MAG_FILES}
    files = sorted(p for p in mag.iterdir() if p.name in names) if mag.is_dir() else []
    openalex = dumps / OPENALEX_DIR
    files += snapshot_parts(openalex, IssueLog()) if openalex.is_dir() else []  # links out are reported when read
    metadata = dumps / ARXIV_METADATA_DIR
    files += sorted(p for p in metadata.iterdir() if METADATA_FILE.search(p.name)) if metadata.is_dir() else []
    return files


def arxiv_metadata_files(dumps: Path, log: IssueLog) -> list[Path]:
    """The files of arXiv's metadata snapshot (``<dumps>/arxiv-metadata/*.json[l][.gz]``), by name; one that is a
    symlink leading out of the folder and the dump root is reported and left out."""
    folder = dumps / ARXIV_METADATA_DIR
    if not folder.is_dir():
        return []
    files = sorted(p for p in folder.iterdir() if METADATA_FILE.search(p.name))
    return [path for path in files if not followed_out(path, folder, dumps, log)]


def catalogue_signature(dumps: Path, settle_seconds: float = 0.0, now: float | None = None) -> list | None:
    """(name, size, mtime) of every catalogue file, or None while one is still being written."""
    now = time.time() if now is None else now
    signature = []
    for path in catalogue_files(dumps):
        stat = path.stat()
        if now - stat.st_mtime < settle_seconds:
            return None
        signature.append([str(path.relative_to(dumps)), stat.st_size, int(stat.st_mtime)])
    return signature
