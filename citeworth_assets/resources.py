"""Dagster resources: the platform settings (:mod:`citeworth_assets.lib.settings`) as one configurable resource."""

import os
from functools import lru_cache

import dagster as dg

from citeworth_assets.lib.citeworth.rules import RuleSet, rule_set
from citeworth_assets.lib.settings import ENV_VARS, SETTINGS, PlatformSettings


@lru_cache(maxsize=32)
def _resolved(**values) -> PlatformSettings:
    return PlatformSettings.resolve(**values)


class PlatformResource(dg.ConfigurableResource):
    """Where dumps are read from and everything is written (lake, warehouse, exports, MLflow store), which
    CiteWorth rule set and sentence splitter build the datasets, where runs are tracked and which local
    encoder checkpoint the BERT-style models start from (defaults: ``citeworth_assets.lib.settings``)."""

    dumps: str = SETTINGS["dumps"][2]
    data: str = SETTINGS["data"][2]
    rules: str = SETTINGS["rules"][2]
    splitter: str = SETTINGS["splitter"][2]
    mlflow_uri: str | None = None
    encoder: str | None = None
    duckdb_memory: str = SETTINGS["duckdb_memory"][2]
    shard_settle_seconds: float = 30.0

    @classmethod
    def from_environment(cls) -> "PlatformResource":
        """The resource of the code location: each ``CITEWORTH_*`` variable that is set is read through
        ``dg.EnvVar`` (so its value is taken when a run starts, and the UI shows where it came from)."""
        return cls(**{name: dg.EnvVar(env) for name, env in ENV_VARS.items() if env in os.environ})

    @property
    def settings(self) -> PlatformSettings:
        """The resolved settings (absolute paths, defaults filled in), computed once per distinct configuration."""
        return _resolved(**{name: getattr(self, name) for name in SETTINGS})

    @property
    def rule_set(self) -> RuleSet:
        """The configured CiteWorth rule set; its ``name`` is versioned and keys every output of the rule set."""
        return rule_set(self.rules)


DEVICE_ENV = {"device": "CITEWORTH_DEVICE", "precision": "CITEWORTH_PRECISION", "cpu_threads": "CITEWORTH_CPU_THREADS"}


class TrainingDevice(dg.ConfigurableResource):
    """Where the neural models train: ``device`` ``auto`` (the first GPU, else the CPU, recorded as a
    fallback), ``cpu``, ``cuda`` or ``cuda:N`` (an error where that GPU is absent); ``precision`` ``auto``
    (bf16 where the GPU supports it, fp16 on older GPUs, fp32 on CPU), ``bf16``, ``fp16`` or ``fp32``;
    ``deterministic`` kernels (slower, same result on every run); ``memory_limit`` of the GPU for this
    process, a fraction when at most 1, else GiB; ``cpu_threads`` for training on the CPU (default: half the
    cores, so that training stays fast on a busy machine). torch is imported only when a training step resolves it."""

    device: str = "auto"
    precision: str = "auto"
    deterministic: bool = False
    memory_limit: float | None = None
    cpu_threads: int | None = None

    @classmethod
    def from_environment(cls) -> "TrainingDevice":
        """``CITEWORTH_DEVICE``, ``CITEWORTH_PRECISION``, ``CITEWORTH_CPU_THREADS`` where set (read when a run
        starts)."""
        read = {"cpu_threads": dg.EnvVar.int}
        return cls(**{name: read.get(name, dg.EnvVar)(env) for name, env in DEVICE_ENV.items() if env in os.environ})

    def setup(self):
        """The resolved :class:`citeworth_models.training.TrainingSetup`, with the GPU memory cap applied."""
        from citeworth_models.training import apply_setup, resolve_setup

        resolved = resolve_setup(self.device, self.precision, self.deterministic, self.memory_limit, self.cpu_threads)
        apply_setup(resolved)
        return resolved

    def describe(self) -> dict[str, str]:
        """Device, its name and compute capability, precision and torch/transformers/CUDA versions: the
        ``training_*`` entries of a training asset's metadata and MLflow params."""
        from citeworth_models.training import describe_setup

        return {f"training_{key}": value for key, value in describe_setup(self.setup()).items()}
