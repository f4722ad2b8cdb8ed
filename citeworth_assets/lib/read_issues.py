"""Read issues: a problem met while reading an input (a damaged line, a missing file, a bad value), kept so that
nothing is lost silently. Every domain counts them in an :class:`IssueLog`, stores them as a lake table of
:data:`read_issue_schema()` (one partition per input) and shows the counts and the first :data:`SHOWN_ISSUES` of
them (as asset metadata, or on standard error for a command).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from citeworth_assets.lib.lazy import lazy_module

pa = lazy_module("pyarrow")

SHOWN_ISSUES = 20  # how many issues an asset's metadata or a command's report shows in full


@cache
def read_issue_schema() -> pa.Schema:
    return pa.schema(
        [
            ("release", pa.string()),
            ("shard", pa.string()),
            ("file", pa.string()),
            ("line", pa.int64()),
            ("byte_offset", pa.int64()),
            ("kind", pa.string()),
            ("message", pa.string()),
            ("paper_id", pa.string()),
        ]
    )


@dataclass(frozen=True)
class ReadIssue:
    """One problem met while reading a dump file; it names the file and the line."""

    file: str
    line: int | None
    byte_offset: int | None
    kind: str
    message: str
    paper_id: str | None = None

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line is not None else self.file
        who = f" (paper {self.paper_id})" if self.paper_id else ""
        return f"{where}{who}: {self.kind}: {self.message}"


@dataclass
class IssueLog:
    """Collects issues and counts them by kind; keeps at most ``keep`` of them in full."""

    keep: int = 100_000
    issues: list[ReadIssue] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)

    def add(self, issue: ReadIssue) -> None:
        self.counts[issue.kind] = self.counts.get(issue.kind, 0) + 1
        if len(self.issues) < self.keep:
            self.issues.append(issue)

    @property
    def total(self) -> int:
        return sum(self.counts.values())


def relative_file(file: str | None, dumps: Path | None) -> str | None:
    """An issue's file as a path under the dump root (``openalex/works/updated_date=2024-01-01/part_000.gz``,
    ``unarxive-2020/x.tar.gz:papers/1701.00001.txt``): a base name alone is ambiguous between folders. Without a
    dump root, the base name."""
    if not file:
        return None
    if dumps is not None:
        for root in dict.fromkeys((str(dumps), str(Path(dumps).resolve()))):
            if file.startswith(root.rstrip("/") + "/"):
                return file[len(root.rstrip("/")) + 1 :]
    return Path(file).name


def issue_rows(issues: Iterable[ReadIssue], release: str, key: str | None, dumps: Path | None = None) -> Iterator[dict]:
    """Issues of one input as rows of :data:`read_issue_schema()` (``shard``: the input's partition key), files named
    relative to ``dumps``."""
    for issue in issues:
        yield {"release": release, "shard": key, **vars(issue), "file": relative_file(issue.file, dumps)}


def first_issues(log: IssueLog) -> str:
    """The first :data:`SHOWN_ISSUES` issues as a Markdown list (``none`` without any)."""
    return "\n".join(f"- `{issue}`" for issue in log.issues[:SHOWN_ISSUES]) or "none"
