"""What the dump-root sensors share: they run, on by default, only while the dump root is configured and exists."""

import json

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


def dump_partition_requests(context: dg.SensorEvaluationContext, partitions, dumps, nothing_new: str):
    """A run (keyed by the file's signature) for every new or replaced settled dump of ``dumps``, a partition of
    ``partitions`` for each new one; the cursor keeps every file's signature, so an unchanged file is not run again."""
    seen: dict = json.loads(context.cursor) if context.cursor else {}
    known = set(context.instance.get_dynamic_partitions(partitions.name))
    new_keys, run_requests = [], []
    for dump in dumps:
        signature = dump.signature()
        if seen.get(dump.key) == signature:
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
