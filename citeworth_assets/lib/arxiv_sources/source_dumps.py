"""arXiv's bulk LaTeX source dumps under the dump root: ``<dumps>/arxiv-src/arXiv_src_YYMM_NNN.tar`` (or at the
top of the dump root), one dynamic partition each. Only directory listings and stats, never a read. A tar that is a
symlink is not a source dump; one leading out of the dump root is reported (``outside_dump_root``) to a given log."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path

from citeworth_assets.lib.dump_root import find_by_key, followed_out
from citeworth_assets.lib.read_issues import IssueLog

SOURCE_DIR = "arxiv-src"
SOURCE_DUMP = re.compile(r"^arXiv_src_(\d{4})_(\d{3})\.tar$")


@dataclass(frozen=True)
class SourceDump:
    path: Path

    @property
    def key(self) -> str:
        """The partition key: ``arXiv_src_2101_001.tar`` -> ``arxiv_src_2101_001``."""
        return self.path.name[: -len(".tar")].lower()

    def signature(self) -> list[int]:
        stat = self.path.stat()
        return [stat.st_size, int(stat.st_mtime)]


def discover_source_dumps(
    dumps: Path, settle_seconds: float = 0.0, now: float | None = None, log: IssueLog | None = None
) -> list[SourceDump]:
    """Settled bulk source tars under the dump root, by name (a tar in both places counts once, arxiv-src/ first);
    symlinks are left out, and with ``log`` each one leading out of its folder and the dump root is reported."""
    now = time.time() if now is None else now
    found: dict[str, SourceDump] = {}
    for folder in (dumps / SOURCE_DIR, dumps):
        if not folder.is_dir():
            continue
        for entry in sorted(folder.iterdir()):
            if SOURCE_DUMP.match(entry.name) and entry.is_symlink():
                if log is not None:
                    followed_out(entry, folder, dumps, log)
            elif SOURCE_DUMP.match(entry.name) and entry.is_file():
                stat = entry.stat()
                if stat.st_size > 0 and now - stat.st_mtime >= settle_seconds:
                    found.setdefault(entry.name, SourceDump(entry))
    return [found[name] for name in sorted(found)]


def find_source_dump(dumps: Path, key: str) -> SourceDump:
    """The source dump of a partition key; a clear error when it is not under the dump root."""
    expected = f"{SOURCE_DIR}/arXiv_src_YYMM_NNN.tar"
    return find_by_key(discover_source_dumps(dumps), key, "arXiv source dump", dumps, expected)
