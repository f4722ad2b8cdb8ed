"""Building the arXiv/MAG part of the graph in-process on a dump root, and querying the warehouse (shared by the
end-to-end tests of tests/defs/arxiv)."""

from pathlib import Path

import dagster as dg
import duckdb

from citeworth_assets.cli.arxiv import build_arxiv_sources
from citeworth_assets.definitions import build_definitions
from citeworth_assets.lib.settings import Settings
from citeworth_assets.resources import CiteworthSettings

QUIET = {"loggers": {"console": {"config": {"log_level": "WARNING"}}}}


def build(dumps: Path, data: Path, instance: dg.DagsterInstance) -> tuple[Settings, list[str], dg.Definitions]:
    """Every arXiv and catalogue source under ``dumps``, then the arxiv.* and mag.* warehouse views."""
    settings = Settings.resolve(dumps=str(dumps), data=str(data))
    settings.require_data()
    defs = build_definitions(CiteworthSettings(**settings.values()))
    failed = build_arxiv_sources(defs, instance, settings)
    views = defs.resolve_job_def("arxiv_warehouse_job").execute_in_process(
        instance=instance, run_config=QUIET, raise_on_error=False
    )
    return settings, failed + ([] if views.success else ["arxiv_warehouse_job"]), defs


def query(settings: Settings, sql: str) -> list[tuple]:
    with duckdb.connect(str(settings.warehouse), read_only=True) as connection:
        return connection.execute(sql).fetchall()


def latest_metadata(instance: dg.DagsterInstance, key: str, partition: str | None = None) -> dict:
    records = instance.fetch_materializations(
        dg.AssetRecordsFilter(asset_key=dg.AssetKey(key), asset_partitions=[partition] if partition else None), limit=1
    ).records
    return {name: value.value for name, value in records[0].asset_materialization.metadata.items()}
