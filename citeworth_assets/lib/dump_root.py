"""The dump root's two rules for every reader: finding one input by its partition key (an error that says where it
was expected), and never reading a file of a dump folder that is a symlink leading out of it and the dump root
(``ln -s /etc/passwd 1901.00001.txt``: refused, and reported as an ``outside_dump_root`` read issue naming it).

A dump folder or dump file that is itself a link (a dump root assembled from links) is read: only what lies
inside a folder is held to that folder."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TypeVar

from citeworth_assets.lib.read_issues import IssueLog, ReadIssue

OUTSIDE_DUMP_ROOT = "outside_dump_root"

Found = TypeVar("Found")


def find_by_key(found: Iterable[Found], key: str, what: str, dumps: Path, expected: str) -> Found:
    """The item of ``found`` whose ``key`` is ``key``; else a FileNotFoundError naming the dump root, the layout
    ``expected`` there and the setting to check."""
    for item in found:
        if item.key == key:
            return item
    raise FileNotFoundError(
        f"{what} {key!r} not found under dump root {dumps} (expected {expected}; check CITEWORTH_DUMPS / --dumps)"
    )


def outside_root(path: Path, *roots: Path) -> bool:
    """Whether ``path`` (a symlink, or under one) leads out of every one of ``roots``: such input is never read."""
    resolved = path.resolve()
    return not any(resolved.is_relative_to(Path(root).resolve()) for root in roots)


def followed_out(path: Path, folder: Path, root: str | Path | None, log: IssueLog) -> bool:
    """Whether a file of a dump folder is a symlink that leads out of both the folder (where its link, if the
    folder is one, leads) and the dump root ``root``: reported, and never read (``ln -s /etc/passwd x.txt``)."""
    roots = (Path(folder), Path(root)) if root is not None else (Path(folder),)
    if not outside_root(path, *roots):
        return False
    message = f"a link to {path.resolve()}, outside the dump root: not read"
    log.add(ReadIssue(str(path), None, None, OUTSIDE_DUMP_ROOT, message))
    return True
