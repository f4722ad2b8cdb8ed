"""The one Definitions object of the citeworth code location (``dagster dev -w workspace.yaml``): every domain's
assets, checks, sensors and jobs, merged, with the platform's resources."""

import dagster as dg

from citeworth_assets.defs import (
    arxiv,
    arxiv_sources,
    automation,
    citesum,
    citeworth,
    citrec,
    mag,
    manual_eval,
    models,
    s2ag,
    s2orc,
    sciqfs,
    warehouse,
)
from citeworth_assets.resources import CiteworthSettings, TrainingDevice

DOMAINS = (
    s2ag,
    s2orc,
    citeworth,
    manual_eval,
    citesum,
    sciqfs,
    citrec,
    models,
    arxiv_sources,
    arxiv,
    mag,
    warehouse,
    automation,
)
# The dump sources each domain declares (``sources`` beside its sensors), in the order a build lists them.
SOURCES = tuple(source for domain in DOMAINS for source in getattr(domain, "sources", ()))


def build_definitions(settings: CiteworthSettings | None = None) -> dg.Definitions:
    """The code location, with settings from the environment unless given (the CLI passes its flags)."""
    resources = {
        "citeworth": settings or CiteworthSettings.from_environment(),
        "training_device": TrainingDevice.from_environment(),
    }
    return dg.Definitions.merge(*(domain.defs for domain in DOMAINS), dg.Definitions(resources=resources))


defs = build_definitions()
