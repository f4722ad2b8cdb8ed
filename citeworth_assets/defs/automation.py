"""Declarative automation: what follows new or replaced shards without a click, and the sensor that evaluates it.

The dump sensor runs the shard job (ingestion and CiteWorth cleaning per shard). Everything computed from
shards (the duplicate list, the CiteSum catalogue and candidates, per-field paragraphs, datasets, statistics,
releases, the rule comparison, warehouse views) carries :func:`follows_shards`, Dagster's ``eager`` condition:
run once any dependency was updated, but not while a dependency is missing or has a run queued or in progress.

Batching comes from that last clause: an asset that reads every shard waits while *any* shard run is queued or
running, so a burst of shards submitted together (by the sensor, a backfill or ``citeworth build``) gives one
rebuild of each dataset after the last shard, not one per shard; assets further down wait for the ones above
them in the same way. Shards that trickle in minutes apart each give a rebuild once the one before is done,
which is the freshest the datasets can be. A cron condition (``on_cron``) would batch by the clock instead, at
the price of stale datasets for up to its period. What one tick requests across partitionings (the CiteSum
catalogue and each shard's candidates, the duplicate list and the field partitions) becomes one asset backfill
(the sensor's ``emit_backfills``), which runs it in dependency order.

Model training (group ``models``) has no condition: it is expensive, so it stays manual (``citeworth build
--models``, or materializing it in the UI).
"""

import dagster as dg


def follows_shards() -> dg.AutomationCondition:
    """Rebuild after a dependency updated, once no dependency is missing, queued or running."""
    return dg.AutomationCondition.eager()


automation_sensor = dg.AutomationConditionSensorDefinition(
    "citeworth_automation_sensor",
    target=dg.AssetSelection.all() - dg.AssetSelection.groups("models"),
    default_status=dg.DefaultSensorStatus.RUNNING,
    minimum_interval_seconds=30,
    description="Brings everything computed from shards up to date after shard runs (per-field partitions, "
    "datasets, statistics, releases, warehouse views): one rebuild after a burst of shards. Models are not "
    "targeted: training is manual.",
)

defs = dg.Definitions(sensors=[automation_sensor])
