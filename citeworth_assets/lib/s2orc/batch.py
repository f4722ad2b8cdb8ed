"""A batch of parsed S2ORC records with their provenance, and the issues found in it, in reading order.

The column builders work on many records at once, field by field, while a record-by-record reading reports a
record's issues field after field and records line after line. :class:`OrderedIssues` gives the log that same
order (by line, then by field), so that batching changes nothing in what is reported.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.read_issues import IssueLog, ReadIssue
from citeworth_assets.lib.s2orc.schema import ShardSource
from citeworth_assets.lib.s2orc.values import RecordReporter

np = lazy_module("numpy")
pa = lazy_module("pyarrow")

NONE = type(None)


def odd_positions(values: list, accepted: set[type]) -> list[int]:
    """Positions of the values whose type is not accepted; the common case (none) is found at C speed."""
    if set(map(type, values)) <= accepted:
        return []
    return [i for i, value in enumerate(values) if type(value) not in accepted]


class OrderedIssues:
    """The issues of one batch, handed to the log in reading order: by line, then by field position."""

    def __init__(self) -> None:
        self.position = -1  # issues of the line itself (not JSON, no paper_id, ...) come first
        self._issues: list[tuple[int, int, int, ReadIssue]] = []

    def add(self, issue: ReadIssue) -> None:
        self._issues.append((issue.line or 0, self.position, len(self._issues), issue))

    def replace_or_add(self, issue: ReadIssue) -> None:
        """``issue`` in place of the last one when that is of the same line and kind (a repair that turned out to
        cost the record: one issue per line, saying what happened), else added."""
        if self._issues and (self._issues[-1][3].line, self._issues[-1][3].kind) == (issue.line, issue.kind):
            self._issues[-1] = (*self._issues[-1][:3], issue)
        else:
            self.add(issue)

    def flush(self, log: IssueLog) -> None:
        for *_, issue in sorted(self._issues, key=lambda item: item[:3]):
            log.add(issue)
        self._issues.clear()
        self.position = -1


@dataclass
class SourceRecords:
    """Parsed records of one file with their line, byte offset and paper_id; what the column builders take."""

    source: ShardSource
    issues: OrderedIssues
    lines: list[int] = field(default_factory=list)
    offsets: list[int] = field(default_factory=list)
    paper_ids: list[str] = field(default_factory=list)
    records: list[dict] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.records)

    def release(self) -> None:
        """Let go of the parsed records once their rows are built (while the collector is still paused)."""
        self.records.clear()

    def reporter(self, i: int) -> RecordReporter:
        """The reporter of record ``i`` (for the per-record rules, which report through it)."""
        return RecordReporter(self.issues, self.source.path, self.lines[i], self.offsets[i], self.paper_ids[i])

    def at_field(self, position: int) -> SourceRecords:
        """Issues reported from here on belong to the field at ``position`` (the order of a record's issues)."""
        self.issues.position = position
        return self

    def subset(self, start: int, stop: int) -> SourceRecords:
        return SourceRecords(
            self.source,
            self.issues,
            self.lines[start:stop],
            self.offsets[start:stop],
            self.paper_ids[start:stop],
            self.records[start:stop],
        )

    def provenance(self, rows_per_record: np.ndarray | None = None) -> dict[str, pa.Array]:
        """The provenance columns, one row per record or ``rows_per_record[i]`` rows for record ``i``."""
        lines, offsets = np.asarray(self.lines, np.int64), np.asarray(self.offsets, np.int64)
        if rows_per_record is not None:
            lines, offsets = np.repeat(lines, rows_per_record), np.repeat(offsets, rows_per_record)
        rows = len(lines)
        source = self.source
        return {
            "release": pa.array([source.release] * rows, pa.string()),
            "shard": pa.array([source.shard] * rows, pa.string()),
            "source_file": pa.array([source.path.name] * rows, pa.string()),
            "line": pa.array(lines, pa.int64()),
            "byte_offset": pa.array(offsets, pa.int64()),
        }
