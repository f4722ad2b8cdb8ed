"""Dagster resources: the platform settings as a configurable resource."""


import os

import dagster as dg

from citeworth_assets.lib.settings import DATA_ENV, DEFAULT_DATA, DEFAULT_DUMPS, DUMPS_ENV, Settings

RULES_ENV = "CITEWORTH_RULES"
SPLITTER_ENV = "CITEWORTH_SPLITTER"


class CiteworthSettings(dg.ConfigurableResource):
    """Where dumps are read from, where the lake, warehouse and MLflow store live, and which CiteWorth
    rule set and sentence splitter build the dataset.

    Defaults come from ``CITEWORTH_DUMPS``, ``CITEWORTH_DATA``, ``CITEWORTH_RULES`` and
    ``CITEWORTH_SPLITTER`` when the code location loads.
    """

    dumps: str = DEFAULT_DUMPS
    data: str = DEFAULT_DATA
    shard_settle_seconds: float = 30.0
    rules: str = "citeworth_2021"
    splitter: str = "scispacy_pysbd"

    @classmethod
    def from_env(cls, **overrides) -> "CiteworthSettings":
        values = {
            "dumps": os.environ.get(DUMPS_ENV, DEFAULT_DUMPS),
            "data": os.environ.get(DATA_ENV, DEFAULT_DATA),
            "rules": os.environ.get(RULES_ENV, "citeworth_2021"),
            "splitter": os.environ.get(SPLITTER_ENV, "scispacy_pysbd"),
        }
        return cls(**{**values, **{k: v for k, v in overrides.items() if v is not None}})

    @property
    def settings(self) -> Settings:
        return Settings.resolve(self.dumps, self.data)
