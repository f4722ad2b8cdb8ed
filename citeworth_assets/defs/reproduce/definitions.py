"""The papers' tables in the warehouse: the asset ``paper_tables`` computes every reproduced table from the
warehouse views it needs and writes the pairs (published, ours, difference, reason) to the lake table
``paper_tables``; the SQL model ``dbt_like_sql/platform/paper_tables.sql`` is the view analysts query over it.

So the view follows the graph like every other relation: the asset depends on the views its tables read and is
refreshed after any of them updates (the models' views too, once ``citeworth build --models`` trains them), and
the view after the asset. Training is started by hand, so ``citeworth build --models`` runs ``paper_tables_job`` after
it. A table whose views are not built yet is written with the reason and the build command,
never left out. ``citeworth reproduce`` computes the same pairs directly from the warehouse, read-only.
"""

import dagster as dg

from citeworth_assets.defs.automation import refreshed_view
from citeworth_assets.defs.warehouse.assets import SQL_MODELS_DIR
from citeworth_assets.lib import lake, warehouse
from citeworth_assets.lib.reproduce import pairing
from citeworth_assets.lib.reproduce.owned import PAPER_TABLES
from citeworth_assets.resources import PlatformResource


def needed_views() -> list[dg.AssetKey]:
    """The warehouse views the reproduced tables read (those the SQL models define)."""
    needs = {tuple(relation.split(".")) for spec in pairing.paper_tables() for relation in spec.needs}
    return [
        dg.AssetKey(list(name)) for name in sorted(needs) if (SQL_MODELS_DIR / name[0] / f"{name[1]}.sql").is_file()
    ]


@dg.asset(
    name=PAPER_TABLES,
    deps=needed_views(),
    group_name="reproduce",  # not a warehouse relation itself: the view platform.paper_tables reads its lake table
    kinds={"duckdb", "parquet"},
    automation_condition=refreshed_view(),
    description="Every published table of the papers beside this build's figures: one row per cell with the printed "
    "value, ours, the difference and why ours is missing (`citeworth reproduce`; the view platform.paper_tables).",
)
def paper_tables(citeworth: PlatformResource) -> dg.MaterializeResult:
    settings = citeworth.settings
    settings.require_data()
    tables = pairing.known_tables()
    try:
        connection = warehouse.reading(settings.warehouse)  # inside a build: the build's draft
    except FileNotFoundError:
        connection = None
    try:
        done = pairing.reproduce(tables, connection)
    finally:
        if connection is not None:
            connection.close()
    rows = pairing.pair_rows(done)
    lake.write_partition(settings.lake, PAPER_TABLES, pairing.pair_schema(), rows.to_pylist())
    ours = sum(pair.ours is not None for _, pairs in done for pair in pairs)
    return dg.MaterializeResult(
        metadata={
            "tables": ", ".join(table.key for table, _ in done),
            "cells": rows.num_rows,
            "cells_with_ours": ours,
            "cells_without_ours": rows.num_rows - ours,
        }
    )


paper_tables_job = dg.define_asset_job(
    "paper_tables_job",
    selection=dg.AssetSelection.assets(paper_tables, dg.AssetKey(["platform", PAPER_TABLES])),
    description="Recompute the papers' tables and refresh platform.paper_tables (`citeworth build --models` runs it "
    "after training, which no automation condition follows).",
)

defs = dg.Definitions(assets=[paper_tables], jobs=[paper_tables_job])
