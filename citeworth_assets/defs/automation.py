"""Declarative automation: the build order, written once, in the graph.

Sources (S2ORC shards, unarXive dump files, the works catalogue) are run by their dump sensors, or by ``citeworth
build``, for inputs the instance has not built yet: each domain declares them as :class:`DumpSource` beside its
sensor. Everything computed from them carries an automation condition, and the automation sensor (or ``citeworth
build``, through :mod:`citeworth_assets.build.plan`) asks Dagster which asset partitions those conditions request.

:func:`follows_inputs` (:func:`follows_shards` for the assets fed by shards) is Dagster's ``eager`` condition: run
once any dependency was updated, but not while a dependency is missing or has a run queued or in progress. Batching
comes from that last clause: an asset that reads every shard waits while *any* shard run is queued or running, so a
burst of shards submitted together gives one rebuild of each dataset after the last shard, not one per shard; assets
further down wait for the ones above them in the same way. A cron condition (``on_cron``) would batch by the clock
instead, at the price of stale datasets.

``eager`` alone never requests a partition on the first evaluation of its condition (Dagster treats everything
already missing then as handled), so a build killed or failed part-way, whose rerun starts that first evaluation
afresh (its cursor is saved only by a build that succeeded), would skip the shards already built, see nothing
updated, and leave every partition below them missing for good. :func:`left_missing` adds that case: on the first
evaluation, a partition still missing whose inputs are all present (or requested in the same evaluation), one of
them materialized, is requested. After that first evaluation it is ``eager`` again: a failed run is not retried
every tick, only once its inputs update, or by the next ``citeworth build`` (which evaluates from the last build
that succeeded).

:func:`follows_some_sources` is ``eager`` for an asset that reads sources which may be absent from a dump root (a
ROUGE-SciQFS build without arXiv files or catalogue): those missing do not hold it back. :func:`refreshed_view` is
for warehouse views: created when missing (a view over a lake table not built yet is empty, not absent), and
refreshed after its inputs update.

Model training (group ``models``) has no condition: it is expensive, so it stays manual (``citeworth build
--models``, or materializing it in the UI).
"""

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import dagster as dg


@cache  # a condition is immutable: one object serves every asset that carries it
def left_missing() -> dg.AutomationCondition:
    """Missing at the first evaluation of the condition against this instance while some input is materialized: what
    a build that was killed or failed part-way left undone (combined below with no input missing or in progress).
    (An input materialized, so that a fresh instance, or a gather over no partition yet, requests nothing.)"""
    condition = dg.AutomationCondition
    return (
        condition.initial_evaluation() & condition.missing() & condition.any_deps_match(~condition.missing())
    ).with_label("left_missing")


@cache
def follows_inputs() -> dg.AutomationCondition:
    """``eager`` (rebuild after a dependency updated, once no dependency is missing, queued or running), and a
    partition left missing by an earlier build requested once its inputs are present (:func:`left_missing`)."""
    eager = dg.AutomationCondition
    return (
        (
            (eager.newly_missing() | eager.any_deps_updated()).since_last_handled().with_label("updated_or_new")
            | left_missing()
        )
        & ~eager.any_deps_missing()
        & ~eager.any_deps_in_progress()
        & ~eager.in_progress()
    ).with_label("follows_inputs")


@cache
def follows_shards() -> dg.AutomationCondition:
    """:func:`follows_inputs`, for the assets computed from S2ORC shards."""
    return follows_inputs()


def follows_some_sources(optional: dg.AssetSelection) -> dg.AutomationCondition:
    """:func:`follows_inputs`, except that the dependencies in ``optional`` may be missing."""
    return follows_inputs().replace("any_deps_missing", dg.AutomationCondition.any_deps_missing().ignore(optional))


@cache
def refreshed_view() -> dg.AutomationCondition:
    """A warehouse view: created while missing, refreshed after any input updated; never while an input is in
    progress. (A view that fails while missing is requested again at the next evaluation.)"""
    return (
        (dg.AutomationCondition.missing() | dg.AutomationCondition.any_deps_updated().since_last_handled())
        & ~dg.AutomationCondition.any_deps_in_progress()
        & ~dg.AutomationCondition.in_progress()
    ).with_label("refreshed_view")


@dataclass(frozen=True)
class DumpSource:
    """Runs that read a dump root directly, as the domain's sensor requests them: ``pending`` gives three lists, the
    partition keys found (added to ``partitions`` first), those of them to run (``None`` for an unpartitioned job)
    and lines to show the user; ``progress`` turns one run's materializations (a metadata lookup ``value(asset,
    field)``) into its progress line."""

    name: str
    job_name: str
    pending: Callable  # (instance, settings, force) -> (keys found, keys to run, notes)
    progress: Callable  # (value: Callable[[str, str], object]) -> str
    partitions: dg.DynamicPartitionsDefinition | None = None
    rank: int = 0  # a build runs the sources by rank: S2AG staging, S2ORC shards, LaTeX sources, unarXive files, MAG


automation_sensor = dg.AutomationConditionSensorDefinition(
    "citeworth_automation_sensor",
    target=dg.AssetSelection.all() - dg.AssetSelection.groups("models"),
    default_status=dg.DefaultSensorStatus.RUNNING,
    minimum_interval_seconds=30,
    description="Brings everything computed from the dump sources up to date after their runs (per-field "
    "partitions, datasets, statistics, releases, warehouse views): one rebuild after a burst of shards. Models are "
    "not targeted: training is manual.",
)

defs = dg.Definitions(sensors=[automation_sensor])
