"""The Dagster definitions, one package per domain (glue over citeworth_assets.lib)."""

import warnings

import dagster as dg


def silence_known_warnings() -> None:
    """The field gathers take all their partitions in one run (BackfillPolicy.single_run), a parameter Dagster 1.13
    marks beta: its warning, printed by every process that loads the definitions, says nothing a user can act on."""
    warnings.filterwarnings(
        "ignore", message="Parameter `backfill_policy` of function `asset`", category=dg.BetaWarning
    )


silence_known_warnings()
