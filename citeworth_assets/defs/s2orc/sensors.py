"""Watches the dump root and turns each new or replaced S2ORC shard into a partition and a run."""


import json

import dagster as dg

from citeworth_assets.defs.s2orc.partitions import s2orc_shards
from citeworth_assets.lib.s2orc.shards import discover_shards, incomplete_shards
from citeworth_assets.lib.settings import SettingError
from citeworth_assets.resources import CiteworthSettings

s2orc_shard_job = dg.define_asset_job(
    "s2orc_shard_job",
    selection=dg.AssetSelection.groups("s2orc") - dg.AssetSelection.assets("s2orc_duplicate_papers")
    | dg.AssetSelection.assets("citeworth_paragraphs", "citeworth_rejections"),
    description="Ingest one S2ORC shard (papers, candidate filter, paragraphs) and clean it with the CiteWorth rules "
    "(its CiteSum candidates wait for the cited-abstract catalogue of every shard: citesum_catalogue_job).",
)


INCOMPLETE = "_incomplete"  # cursor entry: half shards already logged, key -> problem


def _skip(dumps, halves) -> str:
    listed = "; ".join(map(str, halves))
    return f"no new or changed shards under {dumps}" + (f" ({len(halves)} incomplete: {listed})" if halves else "")


@dg.sensor(
    job=s2orc_shard_job,
    minimum_interval_seconds=30,
    default_status=dg.DefaultSensorStatus.RUNNING,
    description="Every 30 s, lists the dump root and runs s2orc_shard_job for each new or replaced shard whose "
    "metadata and pdf_parses files are present and settled (downloads in progress are ignored).",
)
def s2orc_dump_sensor(context: dg.SensorEvaluationContext, citeworth: CiteworthSettings):
    """Adds a partition and requests a run for every shard whose two files are present and settled.

    The cursor maps partition keys to the size and modification time of both files, so a shard is
    run once, and again only when its files are replaced. Release folders are rescanned on every
    evaluation, so a new release is picked up like a new shard. Only directory listings and stats.
    """
    try:
        dumps = citeworth.settings.require_dumps()
    except SettingError as error:
        return dg.SkipReason(str(error))
    seen: dict = json.loads(context.cursor) if context.cursor else {}
    known = set(context.instance.get_dynamic_partitions(s2orc_shards.name))
    new_keys, run_requests = [], []
    # Half shards (a file missing or empty) are not run; each is logged, and again whenever its problem changes.
    halves = incomplete_shards(dumps, settle_seconds=citeworth.shard_settle_seconds)
    reported = seen.get(INCOMPLETE, {})
    for half in halves:
        if reported.get(half.key) != half.problem:
            context.log.warning(f"incomplete shard {half} under {dumps}: not run until both files hold data")
    changed = {half.key: half.problem for half in halves} != reported
    seen[INCOMPLETE] = {half.key: half.problem for half in halves}
    half_keys = set(seen[INCOMPLETE])
    for shard in discover_shards(dumps, settle_seconds=citeworth.shard_settle_seconds):
        if shard.key in half_keys:
            continue
        signature = shard.signature()
        if seen.get(shard.key) == signature:
            continue
        seen[shard.key] = signature
        if shard.key not in known:
            new_keys.append(shard.key)
        run_requests.append(
            dg.RunRequest(partition_key=shard.key, run_key=f"{shard.key}:{':'.join(map(str, signature))}")
        )
    if not run_requests:
        if changed:  # keep the cursor, so that the same half shard is not logged every evaluation
            return dg.SensorResult(skip_reason=_skip(dumps, halves), cursor=json.dumps(seen, sort_keys=True))
        return dg.SkipReason(_skip(dumps, halves))
    return dg.SensorResult(
        run_requests=run_requests,
        dynamic_partitions_requests=[s2orc_shards.build_add_request(new_keys)] if new_keys else [],
        cursor=json.dumps(seen, sort_keys=True),
    )
