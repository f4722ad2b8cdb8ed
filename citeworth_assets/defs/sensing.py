"""What the dump-root sensors share: they run, on by default, only while the dump root is configured and exists,
and skip what the instance records as built from the same bytes.

As for S2ORC shards (``defs/s2orc/built.py``), the first asset a dump's run materializes carries the identity of
its input files (name, sizes, modification times) as its **data version**, stored with the materialization
whoever ran it (``citeworth build``, a sensor's run, a backfill): a sensor compares it with the files now in the
dump root, so opening ``citeworth ui`` after a build requests no run for the files that build read.
"""

import hashlib
import json
from collections.abc import Sequence

import dagster as dg

from citeworth_assets.lib.settings import SettingError
from citeworth_assets.resources import PlatformResource


def dump_root_sensor(job, minimum_interval_seconds: int, description: str, name: str | None = None):
    """A sensor decorator: ``evaluate(context, citeworth, dumps)`` runs with the dump root; without one the sensor
    skips, saying which setting is missing."""

    def decorate(evaluate):
        @dg.sensor(
            name=name or evaluate.__name__,
            job=job,
            minimum_interval_seconds=minimum_interval_seconds,
            default_status=dg.DefaultSensorStatus.RUNNING,
            description=description,
        )
        def sensor(context: dg.SensorEvaluationContext, citeworth: PlatformResource):
            try:
                dumps = citeworth.settings.require_dumps()
            except SettingError as error:
                return dg.SkipReason(str(error))
            return evaluate(context, citeworth, dumps)

        sensor.__doc__ = evaluate.__doc__
        return sensor

    return decorate


def dump_partition_requests(
    context: dg.SensorEvaluationContext, partitions, dumps, nothing_new: str, job_name: str, assets: Sequence
):
    """A run (keyed by the file's signature) for every new or replaced settled dump of ``dumps``, a partition of
    ``partitions`` for each new one. A dump the instance records as built from the same bytes (the data version of
    ``assets[0]``, see :func:`built_versions`) or with a run of ``job_name`` queued or running is left alone; the
    cursor keeps every file's signature requested, so a failed run is not requested again every evaluation."""
    seen: dict = json.loads(context.cursor) if context.cursor else {}
    known = set(context.instance.get_dynamic_partitions(partitions.name))
    built = built_versions(context.instance, assets, [dump.key for dump in dumps])
    running = partitions_in_progress(context.instance, job_name)
    new_keys, run_requests = [], []
    for dump in dumps:
        signature = dump.signature()
        if seen.get(dump.key) == signature or built.get(dump.key) == input_version(dump) or dump.key in running:
            continue
        seen[dump.key] = signature
        if dump.key not in known:
            new_keys.append(dump.key)
        run_requests.append(
            dg.RunRequest(partition_key=dump.key, run_key=f"{dump.key}:{':'.join(map(str, signature))}")
        )
    if not run_requests:
        return dg.SkipReason(nothing_new)
    return dg.SensorResult(
        run_requests=run_requests,
        dynamic_partitions_requests=[partitions.build_add_request(new_keys)] if new_keys else [],
        cursor=json.dumps(seen, sort_keys=True),
    )


VERSION_TAG = "dagster/data_version"
IN_PROGRESS = [
    dg.DagsterRunStatus.QUEUED,
    dg.DagsterRunStatus.NOT_STARTED,
    dg.DagsterRunStatus.STARTING,
    dg.DagsterRunStatus.STARTED,
]


def input_version(dump) -> str:
    """A dump file's (or source tar's) data version: its partition key and its files' sizes and modification times."""
    return ":".join([dump.key, *map(str, dump.signature())])


def signature_version(signature: list) -> str:
    """The data version of a set of files given as (name, size, mtime) rows: a short digest, whatever their number."""
    return hashlib.sha256(json.dumps(signature).encode()).hexdigest()[:20]


def built_versions(
    instance: dg.DagsterInstance, assets: Sequence[dg.AssetKey], partitions: Sequence[str] | None
) -> dict[str | None, str]:
    """The data version of the latest materialization of ``assets[0]`` per partition (``None``: unpartitioned),
    for the partitions where each other asset of ``assets`` has a materialization at least as recent (a run that
    failed after its first step built nothing)."""
    first = assets[0]
    if partitions is None:
        latest = {
            key: instance.fetch_materializations(dg.AssetRecordsFilter(asset_key=key), limit=1).records
            for key in assets
        }
        if not latest[first] or any(
            not latest[key] or latest[key][0].storage_id < latest[first][0].storage_id for key in assets
        ):
            return {}
        return {None: latest[first][0].asset_materialization.tags.get(VERSION_TAG)}
    if not partitions:
        return {}
    event = dg.DagsterEventType.ASSET_MATERIALIZATION
    ids = {key: dict(instance.get_latest_storage_id_by_partition(key, event, set(partitions))) for key in assets}
    wanted = sorted(ids[first].values())
    if not wanted:
        return {}
    records = instance.fetch_materializations(
        dg.AssetRecordsFilter(asset_key=first, storage_ids=wanted), limit=len(wanted)
    ).records
    return {
        record.partition_key: record.asset_materialization.tags.get(VERSION_TAG)
        for record in records
        if all(ids[key].get(record.partition_key, -1) >= record.storage_id for key in assets)
    }


def partitions_in_progress(instance: dg.DagsterInstance, job_name: str) -> set[str]:
    """Partitions with a queued or running run of ``job_name``: requesting them again would build them twice."""
    records = instance.get_run_records(dg.RunsFilter(job_name=job_name, statuses=IN_PROGRESS))
    return {record.dagster_run.tags.get("dagster/partition") for record in records} - {None}
