"""Dagster resources: the platform settings (:mod:`citeworth_assets.lib.settings`) as one configurable resource."""

import os
from functools import lru_cache

import dagster as dg

from citeworth_assets.lib.citeworth.rules import RuleSet, rule_set
from citeworth_assets.lib.settings import ENV_VARS, SETTINGS, Settings


@lru_cache(maxsize=32)
def _resolved(**values) -> Settings:
    return Settings.resolve(**values)


class CiteworthSettings(dg.ConfigurableResource):
    """Where dumps are read from and everything is written (lake, warehouse, exports, MLflow store), which
    CiteWorth rule set and sentence splitter build the datasets, where runs are tracked and which local
    encoder checkpoint the BERT-style models start from (defaults: ``citeworth_assets.lib.settings``)."""

    dumps: str = SETTINGS["dumps"][2]
    data: str = SETTINGS["data"][2]
    rules: str = SETTINGS["rules"][2]
    splitter: str = SETTINGS["splitter"][2]
    mlflow_uri: str | None = None
    encoder: str | None = None
    shard_settle_seconds: float = 30.0

    @classmethod
    def from_environment(cls) -> "CiteworthSettings":
        """The resource of the code location: each ``CITEWORTH_*`` variable that is set is read through
        ``dg.EnvVar`` (so its value is taken when a run starts, and the UI shows where it came from)."""
        return cls(**{name: dg.EnvVar(env) for name, env in ENV_VARS.items() if env in os.environ})

    @property
    def settings(self) -> Settings:
        """The resolved settings (absolute paths, defaults filled in), computed once per distinct configuration."""
        return _resolved(**{name: getattr(self, name) for name in SETTINGS})

    @property
    def rule_set(self) -> RuleSet:
        """The configured CiteWorth rule set; its ``name`` is versioned and keys every output of the rule set."""
        return rule_set(self.rules)
