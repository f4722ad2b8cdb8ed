"""The ``citeworth`` command line. Each module registers its commands on the one group, ``main``."""

from citeworth_assets.cli import citrec  # noqa: F401  (registers the commands)
from citeworth_assets.cli import core  # noqa: F401  (registers the commands)
from citeworth_assets.cli import arxiv  # noqa: F401  (registers the arXiv/MAG commands)
from citeworth_assets.cli import unarxive_input  # noqa: F401, I001  (registers unarxive-to-s2orc)
from citeworth_assets.cli import sciqfs  # noqa: F401
from citeworth_assets.cli.app import main
from citeworth_assets.cli.core import _model_params

__all__ = ["main", "_model_params"]
