"""Reading arXiv source submissions safely: bulk dump tars, gzipped submissions, unpacked folders.

arXiv's bulk source dumps are ``arXiv_src_YYMM_NNN.tar`` files holding ``YYMM/<id>.gz`` (a gzipped tar of
one submission, or one gzipped ``.tex`` file) and ``YYMM/<id>.pdf`` (PDF-only submissions). Archives come from
strangers, so a submission is unpacked into memory, never onto disk: member names are normalised and
those with ``..``, absolute paths, links or devices are skipped (and counted), only TeX-like members are
read, and decompression stops at a byte budget and at a compression ratio that only a bomb reaches.
"""

from __future__ import annotations

import gzip
import io
import posixpath
import re
import tarfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

TEXT_SUFFIXES = (
    ".tex",
    ".ltx",
    ".latex",
    ".bbl",
    ".txt",
    ".sty",
    ".cls",
    ".def",
    ".cfg",
    ".clo",
    ".bib",
    ".json",
    ".xxx",
    "",
)
BULK_MEMBER = re.compile(r"^(?:.*/)?(?P<id>[A-Za-z.-]*\d{4}\.?\d{3,5}(?:v\d+)?)\.(?P<kind>gz|pdf)$")


@dataclass(frozen=True)
class Limits:
    """Budgets that stop hostile archives: bytes decompressed per submission, one member's size, the ratio."""

    max_total_bytes: int = 512 * 1024 * 1024
    max_member_bytes: int = 16 * 1024 * 1024
    max_ratio: float = 200.0  # decompressed / compressed, checked once past ratio_floor_bytes
    ratio_floor_bytes: int = 32 * 1024 * 1024
    max_members: int = 5_000


DEFAULT_LIMITS = Limits()


class CorruptArchive(Exception):
    """A submission whose archive cannot be read or breaks a limit (reason ``corrupt_archive``)."""


@dataclass
class Submission:
    """One submission's TeX-like files (relative POSIX path -> bytes), or why it has none."""

    arxiv_id: str
    files: dict[str, bytes] = field(default_factory=dict)
    kind: str = "tar"  # tar | single | pdf | folder
    skipped: list[str] = field(default_factory=list)  # members refused (links, paths outside, too big)


def arxiv_id_of(member: str) -> str | None:
    """The arXiv id a bulk member names (``2101/2101.00001.gz``, ``9901/hep-th9901001.gz`` -> ``hep-th/9901001``)."""
    match = BULK_MEMBER.match(member)
    if not match:
        return None
    ident = match.group("id")
    old = re.match(r"^([a-z-]+(?:\.[A-Z]{2})?)(\d{7})$", ident)
    return f"{old.group(1)}/{old.group(2)}" if old else ident


class _Budget(io.RawIOBase):
    """A readable stream that counts decompressed bytes and raises past the limits."""

    def __init__(self, raw: io.BufferedIOBase, compressed: int, limits: Limits):
        self.raw, self.compressed, self.limits, self.read_bytes = raw, max(compressed, 1), limits, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        data = self.raw.read(len(buffer))
        self.read_bytes += len(data)
        if self.read_bytes > self.limits.max_total_bytes:
            raise CorruptArchive(f"more than {self.limits.max_total_bytes} bytes decompressed (decompression bomb?)")
        if (
            self.read_bytes > self.limits.ratio_floor_bytes
            and self.read_bytes / self.compressed > self.limits.max_ratio
        ):
            raise CorruptArchive(f"compression ratio over {self.limits.max_ratio:.0f} (decompression bomb?)")
        buffer[: len(data)] = data
        return len(data)


def safe_member_name(name: str) -> str | None:
    """The normalised relative path of a member, or None when it would leave the submission's folder."""
    name = name.replace("\\", "/")
    if name.startswith("/") or re.match(r"^[A-Za-z]:", name):
        return None
    normal = posixpath.normpath(name)
    if normal in (".", "") or normal.startswith("../") or normal == ".." or "/../" in f"/{normal}/":
        return None
    return normal


def _wanted(name: str) -> bool:
    return Path(name).suffix.lower() in TEXT_SUFFIXES


def _read_tar(stream: io.IOBase, submission: Submission, limits: Limits) -> None:
    try:
        with tarfile.open(fileobj=stream, mode="r|") as tar:
            for count, member in enumerate(tar, 1):
                if count > limits.max_members:
                    raise CorruptArchive(f"more than {limits.max_members} members")
                name = safe_member_name(member.name)
                if not member.isfile():
                    if not member.isdir():
                        submission.skipped.append(f"{member.name} (link or special file)")
                    continue
                if name is None:
                    submission.skipped.append(f"{member.name} (path outside the submission)")
                elif member.size > limits.max_member_bytes:
                    submission.skipped.append(f"{member.name} ({member.size} bytes, over the member limit)")
                elif _wanted(name):
                    handle = tar.extractfile(member)
                    submission.files[name] = handle.read() if handle else b""
    except (tarfile.TarError, EOFError, OSError, zlib.error) as error:
        raise CorruptArchive(f"unreadable tar: {error}") from error


def _is_tar(head: bytes) -> bool:
    if len(head) < 512:
        return False
    try:
        tarfile.TarInfo.frombuf(head[:512], "utf-8", "surrogateescape")
    except tarfile.HeaderError:
        return False
    return True


def read_gz_submission(arxiv_id: str, data: bytes, limits: Limits = DEFAULT_LIMITS) -> Submission:
    """A ``.gz`` submission (gzipped tar or gzipped single file) unpacked into memory within ``limits``."""
    submission = Submission(arxiv_id)
    if data[:4] == b"%PDF":
        submission.kind = "pdf"
        return submission
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as gz:
            stream = io.BufferedReader(_Budget(gz, len(data), limits), buffer_size=1 << 16)
            head = stream.peek(1024)[:1024]
            if head[:4] == b"%PDF":
                submission.kind = "pdf"
            elif _is_tar(head):
                _read_tar(stream, submission, limits)
            else:
                submission.kind = "single"
                body = stream.read(limits.max_member_bytes + 1)
                if len(body) > limits.max_member_bytes:
                    raise CorruptArchive(f"single file over {limits.max_member_bytes} bytes")
                submission.files["main.tex"] = body
    except (gzip.BadGzipFile, EOFError, OSError, zlib.error) as error:
        raise CorruptArchive(f"unreadable gzip: {error}") from error
    return submission


def read_folder_submission(folder: Path, limits: Limits = DEFAULT_LIMITS) -> Submission:
    """An unpacked submission folder; symlinks are skipped, nothing outside the folder is read."""
    submission, total = Submission(folder.name, kind="folder"), 0
    root = folder.resolve()
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder).as_posix()
        if path.is_symlink():
            submission.skipped.append(f"{relative} (link)")
        elif path.is_file() and _wanted(relative) and root in path.resolve().parents:
            size = path.stat().st_size
            total += size
            if size > limits.max_member_bytes or total > limits.max_total_bytes:
                submission.skipped.append(f"{relative} ({size} bytes, over the limit)")
                continue
            submission.files[relative] = path.read_bytes()
    return submission


@dataclass(frozen=True)
class RawSubmission:
    """A submission as found in the input, not yet unpacked (cheap to send to a worker)."""

    arxiv_id: str
    source: str  # dump file or folder it came from
    member: str
    data: bytes | None = None  # the .gz or .pdf bytes; None for an unpacked folder
    folder: str | None = None


def iter_bulk_tar(path: Path, limits: Limits = DEFAULT_LIMITS) -> Iterator[RawSubmission]:
    """Every submission of a bulk dump tar, in member order; a member over the limit is yielded without data."""
    with tarfile.open(path, mode="r:*") as tar:
        for member in tar:
            if not member.isfile():
                continue
            arxiv_id = arxiv_id_of(member.name)
            if arxiv_id is None:
                continue
            if member.size > limits.max_total_bytes:
                yield RawSubmission(arxiv_id, path.name, member.name, None)
                continue
            handle = tar.extractfile(member)
            yield RawSubmission(arxiv_id, path.name, member.name, handle.read() if handle else b"")


def iter_sources(paths: list[Path], limits: Limits = DEFAULT_LIMITS) -> Iterator[RawSubmission]:
    """Submissions of each input: a bulk tar, a folder of ``.gz``/``.pdf`` files, or a folder of unpacked folders."""
    for path in paths:
        if path.is_file():
            yield from iter_bulk_tar(path, limits)
            continue
        for entry in sorted(path.iterdir()):
            if entry.is_symlink() or entry.name.startswith("."):
                continue
            if entry.is_dir():
                yield RawSubmission(entry.name, path.name, entry.name, None, str(entry))
            elif entry.suffix in (".gz", ".pdf"):
                arxiv_id = arxiv_id_of(entry.name) or entry.name.rsplit(".", 1)[0]
                yield RawSubmission(arxiv_id, path.name, entry.name, entry.read_bytes())
            elif tarfile.is_tarfile(entry):
                yield from iter_bulk_tar(entry, limits)
