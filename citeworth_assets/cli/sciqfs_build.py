"""ROUGE-SciQFS in ``citeworth build``: every known partition of each source, then the release and the untrained
baselines. The runs are the ones the assets' automation conditions request after new shards or dump files."""

from collections.abc import Callable

QUIET_RUN = {"loggers": {"console": {"config": {"log_level": "WARNING"}}}}
PARTITION_JOBS = {"sciqfs_shard_job": "s2orc_shards", "sciqfs_dump_file_job": "arxiv_dump_files"}


def build_sciqfs(defs, instance, echo: Callable[[str], None] = print) -> list[str]:
    """Tables and examples of every partition, the release, the rankers; returns what failed."""
    failed, examples, partitions = [], 0, 0
    for job_name, partitions_name in PARTITION_JOBS.items():
        job = defs.resolve_job_def(job_name)
        for key in instance.get_dynamic_partitions(partitions_name):
            result = job.execute_in_process(
                partition_key=key, instance=instance, run_config=QUIET_RUN, raise_on_error=False
            )
            partitions += 1
            if not result.success:
                failed.append(f"sciqfs {key}")
                continue
            examples += sum(
                event.step_materialization_data.materialization.metadata["examples"].value
                for event in result.get_asset_materialization_events()
                if event.asset_key.to_user_string().endswith("_examples")
            )
    release = defs.resolve_job_def("sciqfs_release_job").execute_in_process(
        instance=instance, run_config=QUIET_RUN, raise_on_error=False
    )
    if not release.success:
        failed.append("sciqfs_release")
    written = "written" if release.success else "FAILED"
    echo(f"sciqfs: {examples} examples from {partitions} partitions; release {written}")
    return failed
