"""The ``citeworth`` command line. Each module registers its commands on the one group, ``main``."""

from citeworth_assets.cli import (
    arxiv,  # noqa: F401  (registers the arXiv/MAG commands)
    arxiv_sources,  # noqa: F401  (registers arxiv-sources)
    citrec,  # noqa: F401  (registers the commands)
    core,  # noqa: F401  (registers the commands)
    reproduce,  # noqa: F401  (registers reproduce)
    sciqfs,  # noqa: F401
    ui,  # noqa: F401  (registers ui)
    unarxive_input,  # noqa: F401  (registers unarxive-to-s2orc)
)
from citeworth_assets.cli.app import main
from citeworth_assets.cli.core import _model_params

__all__ = ["_model_params", "main"]
