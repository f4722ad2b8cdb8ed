"""One build of a data root: what ``citeworth build`` (and the tests' graph builds) run around the build plan.

The data root is held (one build at a time, :mod:`citeworth_assets.build.guard`), what a killed build left is
cleaned up, and the warehouse assets of the build publish into one draft that replaces the warehouse once the data
has settled; the runs of :func:`~citeworth_assets.build.plan.build_graph` go through the instance's run queue, or
all run in this process.
"""

from __future__ import annotations

from collections.abc import Callable

import dagster as dg

from citeworth_assets.build.plan import QUIET, BuildResult, Request, build_graph


def build_data_root(
    settings,
    *,
    workers: int | None = None,
    force: bool = False,
    train_job: str | None = None,
    train_config: dict | None = None,
    published: Callable[[BuildResult, dg.DagsterInstance], None] | None = None,
    echo: Callable[[str], None] = print,
    log_config: dict | None = None,
    in_process: bool = False,
) -> tuple[BuildResult, dg.DagsterInstance]:
    """Build everything under the settings' dump root into its data root, holding the data root (a second build is
    refused: :class:`~citeworth_assets.build.guard.DataRootBusy`) after cleaning up what a killed build left.

    The warehouse assets of the build publish into one draft that replaces the warehouse once the data has settled,
    unless one failed (or a running daemon launches the runs: then each publishes on its own). ``published`` is
    called then, before ``train_job`` runs in this process: an analyst can open the warehouse while models train.

    ``in_process`` runs every run of the plan in this process, one after another, instead of through the run queue
    (the same plan without a process per run: the tests' graph builds, seconds each)."""
    import os
    from contextlib import ExitStack, nullcontext

    from citeworth_assets.build.dagster_internals import daemon_dequeues
    from citeworth_assets.build.guard import BUILD_PID_ENV, BUILD_PID_TAG, data_root_lock, recover_dead_build
    from citeworth_assets.build.instance import dagster_instance, default_workers
    from citeworth_assets.build.run_queue import environment, run_queue
    from citeworth_assets.definitions import SOURCES, build_definitions
    from citeworth_assets.lib.warehouse import BUILD_DRAFT_ENV, published_whole
    from citeworth_assets.resources import PlatformResource

    with data_root_lock(settings.data):
        instance = dagster_instance(settings, max_concurrent_runs=workers or default_workers())
        defs = build_definitions(PlatformResource(**settings.values()))
        warehouse_assets = set(dg.AssetSelection.groups("warehouse").resolve(defs.resolve_asset_graph()))
        for line in recover_dead_build(instance, settings.data, settings.warehouse, warehouse_assets):
            echo(line)
        train = None
        if train_job is not None:
            assets = frozenset(defs.resolve_job_def(train_job).asset_layer.selected_asset_keys)
            config = {**(log_config or QUIET), **(train_config or {})}
            train = Request(train_job, None, assets, train_job, config, here=True)
        pid = str(os.getpid())
        with ExitStack() as publishing:
            queued_by_daemon = not in_process and daemon_dequeues(instance)
            whole = None if queued_by_daemon else publishing.enter_context(published_whole(settings.warehouse))
            env = {**settings.environment(), BUILD_PID_ENV: pid}
            if whole is not None:
                env[BUILD_DRAFT_ENV] = str(whole.draft)

            def publish(result: BuildResult) -> None:
                result.warehouse_refreshed = not (result.failed_assets & warehouse_assets)
                result.warehouse_built = bool(result.materialized & warehouse_assets)
                if whole is not None:
                    whole.complete = result.warehouse_refreshed
                publishing.close()  # the draft replaces the warehouse here (or is dropped), not after training
                os.environ.pop(BUILD_DRAFT_ENV, None)  # training in this process then writes to the warehouse itself
                if published is not None:
                    published(result, instance)

            with nullcontext(None) if in_process else run_queue(instance, env) as queue, environment(env):
                result = build_graph(
                    defs,
                    instance,
                    settings,
                    queue,
                    sources=SOURCES,
                    force=force,
                    train=train,
                    settled=publish,
                    echo=echo,
                    tags={BUILD_PID_TAG: pid},
                    log_config=log_config,
                )
        return result, instance
