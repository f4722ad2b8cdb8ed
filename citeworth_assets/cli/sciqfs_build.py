"""ROUGE-SciQFS in ``citeworth build``: every known partition of each source, then the release and the untrained
baselines. The runs are the ones the assets' automation conditions request after new shards or dump files.

The partition runs go through the instance's run queue like the S2ORC shard runs, so ``--workers`` (or the
instance's limit under a running daemon) bounds how many run at a time, and the instance's run launcher (one
process per run locally, a pod per run on the Kubernetes launcher) starts them. The release reads every partition,
so it runs once they have all finished.
"""

from collections.abc import Callable

QUIET_RUN = {"loggers": {"console": {"config": {"log_level": "WARNING"}}}}
PARTITION_JOBS = {"sciqfs_shard_job": "s2orc_shards", "sciqfs_dump_file_job": "arxiv_dump_files"}


def _examples(events) -> int:
    return sum(
        event.step_materialization_data.materialization.metadata["examples"].value
        for event in events
        if event.step_materialization_data.materialization.asset_key.to_user_string().endswith("_examples")
    )


def _run_partitions(defs, instance, environment: dict, job_name: str, keys: list[str], echo) -> tuple[int, list]:
    """Every partition of ``job_name`` as queued runs; the examples they wrote and the keys that failed."""
    import dagster as dg

    from citeworth_assets.run_queue import shard_queue

    run_config = dict(QUIET_RUN)
    if defs.resolve_job_def(job_name).executor_def.name == "multi_or_in_process_executor":
        run_config["execution"] = {"config": {"in_process": {}}}  # one process per partition run, not per step
    examples, failed = 0, []
    with shard_queue(instance, job_name, environment) as queue:
        for key in keys:
            queue.submit(key, run_config, {"citeworth/submitted_by": "citeworth build"})
        for run in queue.finished():
            if run.status != dg.DagsterRunStatus.SUCCESS:
                failed.append(f"sciqfs {queue.runs[run.run_id]}")
                echo(f"sciqfs {queue.runs[run.run_id]}: FAILED (run {run.run_id}: see it in `citeworth ui`)")
                continue
            examples += _examples(queue.materializations(run.run_id))
    return examples, failed


def build_sciqfs(defs, instance, environment: dict, echo: Callable[[str], None] = print) -> list[str]:
    """Tables and examples of every partition (``environment``: the build's settings for the run processes), the
    release, the rankers; returns what failed."""
    failed, examples, partitions = [], 0, 0
    for job_name, partitions_name in PARTITION_JOBS.items():
        keys = list(instance.get_dynamic_partitions(partitions_name))
        if keys:
            written, broken = _run_partitions(defs, instance, environment, job_name, keys, echo)
            examples, partitions, failed = examples + written, partitions + len(keys), failed + broken
    release = defs.resolve_job_def("sciqfs_release_job").execute_in_process(
        instance=instance, run_config=QUIET_RUN, raise_on_error=False
    )
    if not release.success:
        failed.append("sciqfs_release")
    written = "written" if release.success else "FAILED"
    echo(f"sciqfs: {examples} examples from {partitions} partitions; release {written}")
    return failed
