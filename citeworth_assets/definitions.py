"""The one Definitions object of the citeworth code location (``dagster dev -w workspace.yaml``, ``dg dev``): every
domain's assets, checks, sensors and jobs, found in the defs folder, with the platform's resources.

A domain is declared once, where it lives: ``defs/<domain>/definitions.py`` holds its ``defs`` and, for a domain that
reads the dump root, its ``sources``; a module at the top of the folder may hold a ``defs`` too (the automation
sensor). That is the layout ``dg`` autoloads (the project is ``[tool.dg]`` in pyproject.toml), found here the way
:mod:`citeworth_assets.lib.domains` finds the lib parts: :func:`dagster.load_from_defs_folder` finds the same
definitions (tests/defs/test_definitions.py compares them) but also scans every installed package's entry points and
renders their component schemas, about 0.3 s that each process loading the code location would pay."""

import importlib
import pkgutil
import warnings
from functools import cache
from types import ModuleType

import dagster as dg

from citeworth_assets import defs as defs_folder
from citeworth_assets.lib import collector
from citeworth_assets.resources import PlatformResource, TrainingDevice

DOMAIN_MODULE = "definitions"  # defs/<domain>/definitions.py, where dg's autoloading stops for that folder


@cache
def defs_modules() -> tuple[ModuleType, ...]:
    """The modules of the defs folder that declare definitions: each domain's ``definitions`` and each top-level
    module with a ``defs``, in name order."""
    found = []
    # the package's warning filter, whatever filters the caller set since it was imported
    with warnings.catch_warnings(), collector.paused():
        defs_folder.silence_known_warnings()
        for info in sorted(pkgutil.iter_modules(defs_folder.__path__), key=lambda info: info.name):
            name = f"{defs_folder.__name__}.{info.name}"
            module = importlib.import_module(f"{name}.{DOMAIN_MODULE}" if info.ispkg else name)
            if isinstance(getattr(module, "defs", None), dg.Definitions):
                found.append(module)
    return tuple(found)


def build_definitions(settings: PlatformResource | None = None) -> dg.Definitions:
    """The code location, with settings from the environment unless given (the CLI passes its flags)."""
    resources = {
        "citeworth": settings or PlatformResource.from_environment(),
        "training_device": TrainingDevice.from_environment(),
    }
    return dg.Definitions.merge(*(module.defs for module in defs_modules()), dg.Definitions(resources=resources))


def dump_sources() -> tuple:
    """The dump sources the domains declare (``sources`` beside their sensors), in the order a build runs them
    (:attr:`~citeworth_assets.defs.automation.DumpSource.rank`)."""
    found = [source for module in defs_modules() for source in getattr(module, "sources", ())]
    return tuple(sorted(found, key=lambda source: source.rank))


defs = build_definitions()
SOURCES = dump_sources()
