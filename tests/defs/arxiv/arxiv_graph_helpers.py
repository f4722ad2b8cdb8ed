"""Reading what the end-to-end tests of tests/defs/arxiv built (with the ``build_graph`` fixture of conftest.py):
the warehouse and the latest materializations."""

import dagster as dg
import duckdb

from citeworth_assets.lib.settings import PlatformSettings


def query(settings: PlatformSettings, sql: str) -> list[tuple]:
    with duckdb.connect(str(settings.warehouse), read_only=True) as connection:
        return connection.execute(sql).fetchall()


def latest_metadata(instance: dg.DagsterInstance, key: str, partition: str | None = None) -> dict:
    records = instance.fetch_materializations(
        dg.AssetRecordsFilter(asset_key=dg.AssetKey(key), asset_partitions=[partition] if partition else None), limit=1
    ).records
    return {name: value.value for name, value in records[0].asset_materialization.metadata.items()}
