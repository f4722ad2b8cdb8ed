"""Dagster resources: the platform settings as a configurable resource."""


import os

import dagster as dg

from citeworth_assets.lib.settings import DATA_ENV, DEFAULT_DATA, DEFAULT_DUMPS, DUMPS_ENV, Settings


class CiteworthSettings(dg.ConfigurableResource):
    """Where dumps are read from and where the lake, warehouse and MLflow store live.

    Defaults come from ``CITEWORTH_DUMPS`` / ``CITEWORTH_DATA`` when the code location loads.
    """

    dumps: str = DEFAULT_DUMPS
    data: str = DEFAULT_DATA
    shard_settle_seconds: float = 30.0

    @classmethod
    def from_env(cls) -> "CiteworthSettings":
        return cls(dumps=os.environ.get(DUMPS_ENV, DEFAULT_DUMPS), data=os.environ.get(DATA_ENV, DEFAULT_DATA))

    @property
    def settings(self) -> Settings:
        return Settings.resolve(self.dumps, self.data)
