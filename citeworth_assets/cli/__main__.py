"""``python -m citeworth_assets.cli``: the ``citeworth`` command."""

from citeworth_assets.cli import main

main()
