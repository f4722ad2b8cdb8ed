"""Every reproduced table, collected from the papers' modules of this package (``<paper>.py``, ``TABLES``).

A paper whose module is not there yet (written by another part of the platform) is skipped: its published
figures still show, each with the reason that nothing computes it.
"""

from __future__ import annotations

import importlib

from citeworth_assets.lib.reproduce.tables import PAPERS, PaperTable


def paper_tables() -> tuple[PaperTable, ...]:
    """The tables of every paper module present, in the order of :data:`PAPERS` then the module's order."""
    found: list[PaperTable] = []
    for paper in PAPERS:
        name = f"{__package__}.{paper}"
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name != name:
                raise
            continue
        found.extend(getattr(module, "TABLES", ()))
    return tuple(found)
