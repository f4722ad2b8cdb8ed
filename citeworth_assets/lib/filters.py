"""Keep it, or drop it for a registered reason: the one filter contract of every dataset.

A *criterion* judges one item and gives None (it passes) or the name of a reason registered in its domain's
:class:`~citeworth_assets.lib.reasons.ReasonRegistry`. A *filter* is an ordered tuple of criteria; the first that
fails names the drop (:func:`first_failure`), so drop counts per reason add up to the items dropped. A criterion
over columns (:func:`column_criterion`) judges a whole batch of rows at once and serves single items through a
one-row batch (:func:`first_failures`): one rule, never a second copy of it.

The runner (:func:`run`) is what every filtering step uses (the S2ORC candidate filter, CiteWorth's rule sets,
CiteSum, ROUGE-SciQFS): it writes the kept and the dropped rows of one partition through the lake and tallies
them, kept and dropped per reason, into the lake table ``filter_tallies``, which ``platform.drop_reasons`` reads
(no domain keeps counters of its own). A partition's kept, dropped and tally tables are published only if the whole
step succeeds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from citeworth_assets.lib import lake
from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.reasons import ReasonRegistry

np = lazy_module("numpy")
pa = lazy_module("pyarrow")
pc = lazy_module("pyarrow.compute")


class UnregisteredReason(ValueError):
    """A criterion declares or gives a reason that is not in its registry."""


@dataclass(frozen=True)
class Criterion:
    """A named check of one item: ``criterion(item, *context)`` gives None when the item passes, else the reason.

    With one reason, ``check`` is a predicate saying what must hold; with several, it gives one of them or None.
    ``columns``: ``check`` takes a batch (an Arrow table) and gives whether each row holds (one reason only).
    """

    name: str
    registry: ReasonRegistry = field(repr=False, compare=False)
    reasons: tuple[str, ...]
    check: Callable[..., Any] = field(repr=False)
    columns: bool = False

    def __post_init__(self):
        object.__setattr__(self, "_single", self.reasons[0] if len(self.reasons) == 1 else None)
        unregistered = [reason for reason in self.reasons if reason not in self.registry]
        if not self.reasons or unregistered:
            raise UnregisteredReason(
                f"criterion {self.name}: reasons {unregistered or '(none)'} are not registered "
                f"{self.registry.domain} drop reasons"
            )
        if self.columns and not self._single:
            raise ValueError(f"criterion {self.name}: a criterion over columns gives one reason")

    def __call__(self, item, *context) -> str | None:
        if self.columns:
            raise TypeError(f"criterion {self.name} judges columns: apply it with first_failures")
        verdict = self.check(item, *context)
        if self._single:
            return None if verdict else self._single
        if verdict is not None and verdict not in self.reasons:
            raise UnregisteredReason(f"criterion {self.name} gave {verdict!r}, not one of its reasons {self.reasons}")
        return verdict


def criterion(registry: ReasonRegistry, *reasons: str) -> Callable[[Callable], Criterion]:
    """Declare a function of an item as a criterion named after it: a predicate for one reason (what must hold), or
    a function giving one of several reasons or None."""
    return lambda check: Criterion(check.__name__, registry, reasons, check)


def column_criterion(registry: ReasonRegistry, reason: str) -> Callable[[Callable], Criterion]:
    """Declare a function of a batch (an Arrow table) giving, per row, whether the criterion holds."""
    return lambda check: Criterion(check.__name__, registry, (reason,), check, columns=True)


def first_failure(criteria: Sequence[Criterion], item, *context) -> str | None:
    """The reason of the first criterion the item fails, in the filter's order; None: the item is kept."""
    for judge in criteria:
        reason = judge(item, *context)
        if reason:
            return reason
    return None


def first_failures(criteria: Sequence[Criterion], batch: pa.Table) -> np.ndarray:
    """Per row of ``batch``, the reason of the first criterion over columns it fails, or None (kept)."""
    failed = np.full(batch.num_rows, None, dtype=object)
    for judge in reversed(criteria):  # the first criterion a row fails is the last one written
        failed[~np.asarray(judge.check(batch), dtype=bool)] = judge._single
    return failed


class Tally:
    """How many items one domain's filter kept, and dropped per reason, in one run; a reason must be registered."""

    def __init__(self, registry: ReasonRegistry):
        self.registry, self.kept, self.dropped = registry, 0, Counter()

    def keep(self, items: int = 1) -> None:
        self.kept += items

    def drop(self, reason: str, items: int = 1) -> str:
        self.dropped[self.registry.require(reason)] += items
        return reason

    def drop_each(self, reasons: pa.Array | Iterable[str]) -> None:
        """Count one drop per reason given (an Arrow array of a batch's reasons, or any iterable)."""
        if isinstance(reasons, pa.Array | pa.ChunkedArray):
            for count in pc.value_counts(reasons).to_pylist():
                self.drop(count["values"], count["counts"])
        else:
            for reason in reasons:
                self.drop(reason)

    @property
    def by_reason(self) -> dict[str, int]:
        return dict(sorted(self.dropped.items()))

    def rows(self, step: str, partition: str | None) -> list[dict]:
        """Rows of :data:`tally_schema()`: the kept items (reason null), then each reason that dropped any."""
        where = {"step": step, "partition": partition, "domain": self.registry.domain}
        kept = [{**where, "reason": None, "items": self.kept}]
        return kept + [{**where, "reason": reason, "items": items} for reason, items in self.by_reason.items()]


TALLY_TABLE = "filter_tallies"
TALLY_DIMENSION = "tally"  # folders tally=<step>.<partition key> (not "step": a column of the rows holds the step)


@cache
def tally_schema() -> pa.Schema:
    return pa.schema(
        [
            ("step", pa.string()),  # the asset that ran the filter
            ("partition", pa.string()),  # the partition key of its kept and dropped tables
            ("domain", pa.string()),  # whose registry names the reasons
            ("reason", pa.string()),  # null: the kept items
            ("items", pa.int64()),
        ]
    )


class FilterRun:
    """One step's filtering of one partition: the kept and dropped writers (either may be absent) and a tally per
    domain whose filter runs in the step (the first is the step's own)."""

    def __init__(self, kept=None, dropped=None, registries: Sequence[ReasonRegistry] = ()):
        self.kept, self.dropped = kept, dropped
        self.tallies = {registry.domain: Tally(registry) for registry in registries}
        self.tally = next(iter(self.tallies.values()))

    def keep(self, row: dict) -> None:
        self.kept.write(row)
        self.tally.keep()

    def drop(self, reason: str, row: dict | None = None, domain: str | None = None) -> None:
        """Count a drop (for ``domain``'s filter, else the step's own) and write its row, if given."""
        self.tallies[domain or self.tally.registry.domain].drop(reason)
        if row is not None:
            self.dropped.write(row)

    def keep_table(self, table: pa.Table) -> None:
        self.kept.write_table(table)
        self.tally.keep(table.num_rows)

    def drop_table(self, table: pa.Table, reason_column: str) -> None:
        self.tally.drop_each(table.column(reason_column))
        self.dropped.write_table(table)

    def tally_rows(self, step: str, partition: str | None) -> list[dict]:
        return [row for tally in self.tallies.values() for row in tally.rows(step, partition)]


@contextmanager
def run(
    lake_root: Path,
    step: str,
    key: str | None,
    registries: Sequence[ReasonRegistry],
    kept: tuple[str, pa.Schema] | None = None,
    dropped: tuple[str, pa.Schema] | None = None,
    dimension: str = lake.SHARD_DIMENSION,
) -> Iterator[FilterRun]:
    """The runner: a :class:`FilterRun` over partition ``key`` of the ``kept`` and ``dropped`` tables (each
    ``(table, schema)``); when the block succeeds, its tallies are written under ``step`` and all are published."""
    with ExitStack() as stack:
        tallies = stack.enter_context(
            lake.PartitionWriter(lake_root, TALLY_TABLE, tally_schema(), tally_key(step, key), TALLY_DIMENSION)
        )
        writers = [
            stack.enter_context(lake.PartitionWriter(lake_root, *table, key, dimension)) if table else None
            for table in (dropped, kept)
        ]
        filter_run = FilterRun(writers[1], writers[0], registries)
        yield filter_run
        tallies.write_all(filter_run.tally_rows(step, key))


def tally_key(step: str, key: str | None) -> str:
    return step if key is None else f"{step}.{key}"
