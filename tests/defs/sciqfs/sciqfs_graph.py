"""Helpers of the ROUGE-SciQFS graph tests: build a dump through the graph on a real Dagster instance, read results."""

import dagster as dg
import duckdb

from citeworth_assets.build.instance import dagster_instance
from citeworth_assets.definitions import build_definitions
from citeworth_assets.defs.s2orc.partitions import s2orc_shards
from citeworth_assets.lib.s2orc.shards import discover_shards
from citeworth_assets.lib.settings import PlatformSettings
from citeworth_assets.resources import PlatformResource

VIEWS = ("papers", "references", "citations", "examples", "statistics", "baselines", "baseline_examples")
QUIET = {"loggers": {"console": {"config": {"log_level": "WARNING"}}}}


def build_sciqfs(defs, instance, shard_keys):
    """Each shard's SciQFS partition, then the release and the untrained baselines: the runs the automation
    conditions request after the shards."""
    results = [
        defs.resolve_job_def("sciqfs_shard_job").execute_in_process(
            partition_key=key, instance=instance, run_config=QUIET
        )
        for key in shard_keys
    ]
    results.append(defs.resolve_job_def("sciqfs_release_job").execute_in_process(instance=instance, run_config=QUIET))
    assert all(result.success for result in results)
    return results


def build(root, dumps, mlflow_uri, baselines_config=None):
    """Shard jobs, the catalogue, the SciQFS partitions, release and rankers, the trained baselines when configured,
    then the sciqfs views."""
    data = root / "data"
    settings = PlatformSettings.resolve(dumps=str(dumps), data=str(data), mlflow_uri=mlflow_uri)
    settings.require_data()
    instance = dagster_instance(settings)
    defs = build_definitions(PlatformResource(**settings.values()))
    keys = [shard.key for shard in discover_shards(dumps)]
    instance.add_dynamic_partitions(s2orc_shards.name, keys)
    for key in keys:
        assert (
            defs.resolve_job_def("s2orc_shard_job")
            .execute_in_process(partition_key=key, instance=instance, run_config=QUIET)
            .success
        )
    assert defs.resolve_job_def("s2orc_dump_job").execute_in_process(instance=instance, run_config=QUIET).success
    assert defs.resolve_job_def("citesum_catalogue_job").execute_in_process(instance=instance, run_config=QUIET).success
    dataset = build_sciqfs(defs, instance, keys)
    baselines = None
    if baselines_config is not None:
        baselines = defs.resolve_job_def("sciqfs_baselines_job").execute_in_process(
            instance=instance, run_config={**QUIET, "ops": {"sciqfs_baselines": {"config": baselines_config}}}
        )
    views = [dg.AssetKey(["sciqfs", name]) for name in VIEWS]
    refreshed = defs.resolve_implicit_global_asset_job_def().execute_in_process(
        instance=instance, run_config=QUIET, asset_selection=views
    )
    assert refreshed.success
    return data, dataset, baselines, mlflow_uri


def all_metadata(results, key: str) -> list[dict]:
    """The metadata of every materialization of ``key`` in ``results`` (one result or several)."""
    found = []
    for result in results if isinstance(results, list) else [results]:
        for event in result.get_asset_materialization_events():
            materialization = event.step_materialization_data.materialization
            if materialization.asset_key.to_user_string() == key:
                found.append({name: value.value for name, value in materialization.metadata.items()})
    return found


def metadata(results, key: str) -> dict:
    found = all_metadata(results, key)
    if not found:
        raise KeyError(key)
    return found[0]


def query(data, sql):
    with duckdb.connect(str(data / "warehouse.duckdb"), read_only=True) as connection:
        return connection.execute(sql).fetchall()
