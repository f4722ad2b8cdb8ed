"""What the dump-root sensors share: they run, on by default, only while the dump root is configured and exists."""

import dagster as dg

from citeworth_assets.lib.settings import SettingError
from citeworth_assets.resources import CiteworthSettings


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
        def sensor(context: dg.SensorEvaluationContext, citeworth: CiteworthSettings):
            try:
                dumps = citeworth.settings.require_dumps()
            except SettingError as error:
                return dg.SkipReason(str(error))
            return evaluate(context, citeworth, dumps)

        sensor.__doc__ = evaluate.__doc__
        return sensor

    return decorate
