"""One build plan: what ``citeworth build`` (and every test that builds a graph) runs, asked of Dagster.

1. Each domain's dump sources (:class:`~citeworth_assets.defs.automation.DumpSource`, declared beside its sensor) say
   which partitions to add and which runs to request, as the sensors do.
2. The graph's automation conditions are evaluated against the instance (``dg.evaluate_automation_conditions``, the
   evaluation the automation sensor makes), and the requested asset partitions become runs: one per partition, the
   assets of one partition together, in the graph's dependency order.
   Warehouse views (condition ``refreshed_view``) wait until nothing else is requested: one refresh per build.
3. Runs go through the instance's run queue (:mod:`citeworth_assets.build.run_queue`: ``--workers``, pools); once they
   finish, the conditions are evaluated again, until nothing is requested. ``--models`` then trains (the models
   group has no condition) and the conditions are evaluated once more.

Nothing here knows a job or an asset by name: a new source adds a ``DumpSource`` and its assets' conditions in its
own domain. The evaluation cursor of the last build that succeeded is kept in the instance, so a build after a failed
one evaluates against what the failed build started from and runs again what it left undone.
"""

from __future__ import annotations

import graphlib
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import dagster as dg

from citeworth_assets.build.dagster_internals import dynamic_partitions_read_once, partition_range_tags
from citeworth_assets.build.guard import IN_BUILD_TAG
from citeworth_assets.lib.signals import sigterm_kept

QUIET = {"loggers": {"console": {"config": {"log_level": "WARNING"}}}}
ASSET_JOB = "__ASSET_JOB"
AUTOMATED = dg.AssetSelection.all() - dg.AssetSelection.groups("models")
CURSOR_KEY = "citeworth/build_automation_cursor"
LAST = "refreshed_view"  # the label of defs.automation.refreshed_view
MAX_ROUNDS = 40  # a graph is far shallower; a bound against a condition that keeps requesting


@dataclass
class Request:
    """One run: a job's own selection (sources, training) or some assets of the asset job, for one partition."""

    label: str
    partition: str | None
    assets: frozenset
    job_name: str = ASSET_JOB
    run_config: dict | None = None  # None: the build's logging, executed in process (one process per run)
    progress: Callable | None = None  # (value) -> line; sources only
    here: bool = False  # a job run executed in the build's process (training, after the warehouse is published)
    partitions: tuple[str, ...] = ()  # a run of a range of partitions (assets whose backfill policy is single_run)

    @property
    def keys(self) -> tuple:
        """The partitions this request runs (``(None,)`` unpartitioned)."""
        return self.partitions or (self.partition,)


@dataclass
class BuildResult:
    failed: list[str] = field(default_factory=list)
    runs: int = 0
    materialized: set = field(default_factory=set)  # asset keys materialized by this build
    failed_assets: set = field(default_factory=set)  # asset keys of failed runs
    warehouse_refreshed: bool = True  # False: a warehouse asset failed and the previous warehouse was kept
    warehouse_built: bool = False  # True: a warehouse asset was materialized (the warehouse was written)

    @property
    def success(self) -> bool:
        return not self.failed


class Plan:
    """Orders requests by the asset graph and submits them, stage by stage, to a run queue."""

    def __init__(
        self, defs: dg.Definitions, instance, queue, echo: Callable[[str], None], tags: dict, log_config: dict
    ):
        self.defs, self.instance, self.queue = defs, instance, queue  # queue None: every run in this process
        self.echo, self.tags, self.log_config = echo, tags, log_config
        self.graph = defs.resolve_asset_graph()
        parents = {key: set(self.graph.get(key).parent_keys) for key in self.graph.get_all_asset_keys()}
        self.order = {key: index for index, key in enumerate(graphlib.TopologicalSorter(parents).static_order())}
        self.ancestors: dict = {}
        for key in sorted(parents, key=self.order.get):
            self.ancestors[key] = set().union(*(self.ancestors[p] | {p} for p in parents[key]))
        self.result = BuildResult()
        self.cursor = None
        self.carried: list[Request] = []  # requested before the sources ran: run with the first round after them
        self.failed_items: set = set()  # (asset key, partition) of failed runs: not requested again in this build
        # Assets refreshed once the rest has settled (warehouse views, by their condition)
        self.last = {key for key in parents if _label(self.graph.get(key).automation_condition) == LAST}
        self.updated: set = set()  # asset keys materialized since the conditions were last evaluated

    def run(self, requests: list[Request]) -> None:
        """Every request, each once all requests it depends on have finished; those below a failure are not run."""
        pending = sorted(requests, key=lambda r: min((self.order[k] for k in r.assets), default=0))
        failed_assets: set = set()
        while pending:
            stage = self._ready(pending)
            pending = [request for request in pending if request not in stage]
            runs = self._merged(stage)
            for request in runs:
                request.assets = self._along(request, pending)
            covered = {(key, partition) for run in runs for key in run.assets for partition in run.keys}
            pending = [r for r in pending if not all((key, r.partition) in covered for key in r.assets)]
            self._submit_and_wait(runs, failed_assets)
            below = [r for r in pending if any(self.ancestors[k] & failed_assets for k in r.assets)]
            for request in below:
                self.echo(f"{request.label}: not run (an input failed)")
            pending = [request for request in pending if request not in below]

    def _upstream(self, request: Request) -> set:
        """The assets the request reads, its own left out (two partitions of one asset do not wait for each other)."""
        return set().union(*(self.ancestors[key] for key in request.assets)) - request.assets

    def _ready(self, pending: list[Request]) -> list[Request]:
        """The requests whose pending inputs are all ready in the same partition (runnable in one run with them)."""
        ready: list[Request] = []
        for request in pending:  # inputs come first in this order
            upstream = self._upstream(request)
            blockers = [other for other in pending if other is not request and upstream & other.assets]
            if all(b in ready and b.partition == request.partition and _mergeable(b, request) for b in blockers):
                ready.append(request)
        return ready or pending[:1]  # (never empty: the first in graph order has no input left pending)

    def _merged(self, stage: list[Request]) -> list[Request]:
        """Asset-job requests of one partition merged into one run."""
        merged: dict = {}
        runs: list[Request] = []
        for request in stage:
            if request.job_name != ASSET_JOB:
                runs.append(request)
                continue
            key = (request.partition, _partitions_id(self.graph, request.assets))
            if key in merged:
                merged[key].assets = merged[key].assets | request.assets
            else:
                merged[key] = Request(request.label, request.partition, request.assets, run_config=request.run_config)
                runs.append(merged[key])
        runs = self._ranged(runs)
        for request in runs:
            if request.job_name == ASSET_JOB:
                names = sorted(key.to_user_string() for key in request.assets)
                where = f"[{request.partition}]" if request.partition else ""
                where = f"[{request.partitions[0]}...{request.partitions[-1]}]" if request.partitions else where
                request.label = f"{', '.join(names[:3])}{f' +{len(names) - 3}' if len(names) > 3 else ''}{where}"
        return runs

    def _ranged(self, runs: list[Request]) -> list[Request]:
        """Runs of static partitions of assets that take a range in one run (``BackfillPolicy.single_run``: the field
        gathers, quick queries each) made one run per consecutive range, not one run per partition."""
        groups: dict = {}
        for request in runs:
            definition = self.graph.get(next(iter(request.assets))).partitions_def
            single = all(
                self.graph.get(key).backfill_policy == dg.BackfillPolicy.single_run() for key in request.assets
            )
            if request.job_name == ASSET_JOB and isinstance(definition, dg.StaticPartitionsDefinition) and single:
                groups.setdefault(request.assets, []).append(request)
        for assets, group in groups.items():
            keys = self.graph.get(next(iter(assets))).partitions_def.get_partition_keys()
            wanted = sorted((request.partition for request in group), key=keys.index)
            if len(wanted) < 2 or keys.index(wanted[-1]) - keys.index(wanted[0]) + 1 != len(wanted):
                continue  # (not consecutive: one run per partition, as requested)
            first = group[0]
            runs = [request for request in runs if request not in group]
            runs.append(Request(first.label, None, assets, run_config=first.run_config, partitions=tuple(wanted)))
        return runs

    def _along(self, request: Request, waiting: list[Request]) -> frozenset:
        """The request's assets and those below them in the same partition whose other inputs are settled: the
        conditions would request them one round later, so they run in this run (one run per partition and round,
        not one per asset; a run process costs seconds)."""
        definition = self.graph.get(next(iter(request.assets))).partitions_def
        if request.job_name != ASSET_JOB or not isinstance(definition, dg.DynamicPartitionsDefinition):
            return request.assets
        assets = set(request.assets)
        unsettled = set().union(*(r.assets for r in waiting + self.carried)) | assets
        for key in sorted(self.order, key=self.order.get):
            node = self.graph.get(key)
            if (
                key in assets
                or not self.ancestors[key] & assets
                or node.partitions_def != definition
                or _label(node.automation_condition) in (None, LAST)
                or (key, request.partition) in self.failed_items
            ):
                continue
            if all(
                parent in assets or self._settled(parent, request.partition, unsettled) for parent in node.parent_keys
            ):
                assets.add(key)
                unsettled.add(key)
        return frozenset(assets)

    def _settled(self, key, partition: str, unsettled: set) -> bool:
        """Whether an input is built and nothing pending (or updated since the last evaluation) lies above it."""
        if key in unsettled or self.ancestors[key] & unsettled:
            return False
        if key not in self.updated and self.ancestors[key] & self.updated:
            return False  # (the next evaluation would request it)
        definition = self.graph.get(key).partitions_def
        if definition is not None and not isinstance(definition, dg.DynamicPartitionsDefinition):
            return False  # (static partitions: a gather over all of them; left to the conditions)
        records = self.instance.fetch_materializations(
            dg.AssetRecordsFilter(key, asset_partitions=[partition] if definition is not None else None), limit=1
        )
        return bool(records.records)

    def _one_process(self, job_name: str) -> dict:
        """Executor config that runs every step of a run in its process (one import of the code, not one per step)."""
        executor = self.defs.resolve_job_def(job_name).executor_def
        return {"execution": {"config": {"in_process": {}}}} if executor.name == "multi_or_in_process_executor" else {}

    def _local(self, request: Request) -> bool:
        """Asset runs that are not per input (unpartitioned, or per static field: quick gathers over the lake) run
        in this process, as runs of the instance all the same; per-shard and per-dump-file runs are queued."""
        if self.queue is None:
            return True
        if request.job_name != ASSET_JOB:
            return request.here
        definition = self.graph.get(next(iter(request.assets))).partitions_def
        return not isinstance(definition, dg.DynamicPartitionsDefinition)

    def _submit_and_wait(self, runs: list[Request], failed_assets: set) -> None:
        submitted = {}
        for request in runs:
            if not self._local(request):
                config = request.run_config or {**self.log_config, **self._one_process(request.job_name)}
                run_id = self.queue.submit(
                    request.job_name, request.partition, config, self.tags, _selection(request), request
                )
                submitted[run_id] = request
        self.result.runs += len(runs)
        local: dict = {}  # label without partition -> (partitions, seconds)
        for request in runs:
            if self._local(request):
                started = time.perf_counter()
                result = self._execute_here(request)
                events = result.get_asset_materialization_events()
                if request.job_name != ASSET_JOB or request.partitions:  # a source (no queue), or a range in one run
                    self._finished(request, result.success, result.run_id, events, time.perf_counter() - started)
                elif self._finished(request, result.success, result.run_id, events, None) and request.partition:
                    label = request.label.removesuffix(f"[{request.partition}]")
                    count, seconds = local.get(label, (0, 0.0))
                    local[label] = (count + 1, seconds + time.perf_counter() - started)
        for label, (count, seconds) in local.items():
            self.echo(f"{label}: {count} partitions ({seconds:.1f} s)")
        for run in self.queue.finished(submitted) if submitted else ():
            record = self.instance.get_run_record_by_id(run.run_id)
            seconds = (record.end_time or 0) - (record.start_time or record.create_timestamp.timestamp())
            events = self.queue.materializations(run.run_id)
            self._finished(
                submitted[run.run_id], run.status == dg.DagsterRunStatus.SUCCESS, run.run_id, events, seconds
            )
        failed_assets.update(self.result.failed_assets)

    def _execute_here(self, request: Request):
        """One run in this process: a job's own (a source, training) or some assets of the asset job."""
        config, tags = request.run_config or self.log_config, {**self.tags, IN_BUILD_TAG: "true"}
        if request.partitions:
            tags.update(partition_range_tags(request.partitions[0], request.partitions[-1]))
        if request.job_name == ASSET_JOB:
            job, selection = self.defs.resolve_implicit_global_asset_job_def(), sorted(request.assets)
        else:
            job, selection = self.defs.resolve_job_def(request.job_name), None
        with sigterm_kept():
            return job.execute_in_process(
                instance=self.instance,
                partition_key=request.partition,
                asset_selection=selection,
                run_config=config,
                tags=tags,
                raise_on_error=False,
            )

    def _finished(self, request: Request, success: bool, run_id: str, events, seconds: float | None) -> bool:
        """Record one finished run; a line for it unless it is one partition of a local run (summed by the caller)."""
        self.result.materialized |= {_event_key(event) for event in events}
        self.updated |= {_event_key(event) for event in events}
        if not success:
            self.result.failed.append(request.label)
            self.result.failed_assets.update(request.assets)
            self.failed_items |= {(key, partition) for key in request.assets for partition in request.keys}
            self.echo(f"{request.label}: FAILED (run {run_id}: see it in `citeworth ui`)")
            return False
        if seconds is not None or request.partition is None:
            detail = request.progress(lambda key, name: _metadata(events, key, name)) if request.progress else "done"
            first, *more = detail.split("\n")  # the time on the first line; a progress may add lines below
            timed = f" ({seconds:.1f} s)" if seconds is not None else ""
            self.echo("\n".join([f"{request.label}: {first}{timed}", *more]))
        return True


def _label(condition) -> str | None:
    return condition.get_label() if condition is not None else None


def _same(a: Request, b: Request) -> bool:
    return a.job_name == b.job_name and a.partition == b.partition and a.assets == b.assets


def _covered(request: Request, runs: list[Request]) -> bool:
    """Whether one of ``runs`` materializes every asset of ``request`` in its partition."""
    return any(run.partition == request.partition and request.assets <= run.assets for run in runs)


def _selection(request: Request):
    return request.assets if request.job_name == ASSET_JOB else None


def _mergeable(a: Request, b: Request) -> bool:
    return a.job_name == ASSET_JOB and b.job_name == ASSET_JOB


def _partitions_id(graph, assets) -> object:
    definition = graph.get(next(iter(assets))).partitions_def
    if definition is None:
        return None
    return getattr(definition, "name", None) or tuple(definition.get_partition_keys())


def _event_key(event) -> dg.AssetKey:
    return event.step_materialization_data.materialization.asset_key


def _metadata(events, key: str, name: str):
    for event in events:
        materialization = event.step_materialization_data.materialization
        if materialization.asset_key.to_user_string() == key and name in materialization.metadata:
            return materialization.metadata[name].value
    return None


def source_requests(defs: dg.Definitions, instance: dg.DagsterInstance, settings, sources, force: bool, echo):
    """The runs the dump sources want, after adding their new partitions (as their sensors do)."""
    requests = []
    for source in sources:
        keys, run, notes = source.pending(instance, settings, force)
        if source.partitions is not None:
            known = set(instance.get_dynamic_partitions(source.partitions.name))
            instance.add_dynamic_partitions(source.partitions.name, [key for key in keys if key not in known])
        for note in notes:
            echo(note)
        assets = frozenset(defs.resolve_job_def(source.job_name).asset_layer.selected_asset_keys)
        for key in run:
            label = f"[{keys.index(key) + 1}/{len(keys)}] {key}" if key is not None else source.name
            requests.append(Request(label, key, assets, source.job_name, None, source.progress))
    return requests


def automation_requests(defs, instance, cursor, selection=AUTOMATED) -> tuple[list[Request], object]:
    """What the graph's automation conditions request now: one request per asset and partition."""
    logging.getLogger("dagster.automation_condition_tester").setLevel(logging.WARNING)  # not a line per asset
    with dynamic_partitions_read_once(instance):
        evaluated = dg.evaluate_automation_conditions(defs, instance, asset_selection=selection, cursor=cursor)
    requests = []
    for result in evaluated.results:
        key = result.key
        if not isinstance(key, dg.AssetKey) or result.true_subset.is_empty:
            continue
        for partition in sorted(evaluated.get_requested_partitions(key), key=lambda p: p or ""):
            requests.append(Request(key.to_user_string(), partition, frozenset([key])))
    return requests, evaluated.cursor


def saved_cursor(instance: dg.DagsterInstance):
    text = instance.run_storage.get_cursor_values({CURSOR_KEY}).get(CURSOR_KEY)
    if not text:
        return None
    try:
        return dg.deserialize_value(text)
    except Exception:  # a cursor of another Dagster version: start afresh, as the automation sensor would
        return None


def save_cursor(instance: dg.DagsterInstance, cursor) -> None:
    instance.run_storage.set_cursor_values({CURSOR_KEY: dg.serialize_value(cursor)})


def build_graph(
    defs: dg.Definitions,
    instance: dg.DagsterInstance,
    settings,
    queue,
    *,
    sources: Iterable = (),
    force: bool = False,
    train: Request | None = None,
    settled: Callable[[BuildResult], None] | None = None,
    echo: Callable[[str], None] = print,
    tags: dict | None = None,
    log_config: dict | None = None,
) -> BuildResult:
    """Sources first, then whatever the automation conditions request, round after round; ``settled`` is called once
    that data has settled, then ``train`` runs with what follows it. Returns what failed and what was materialized."""
    plan = Plan(
        defs, instance, queue, echo, {"citeworth/submitted_by": "citeworth build", **(tags or {})}, log_config or QUIET
    )
    cursor = saved_cursor(instance)
    plan.carried, plan.cursor = automation_requests(defs, instance, cursor)  # changed since the last build
    started, requests = time.perf_counter(), source_requests(defs, instance, settings, sources, force, echo)
    plan.carried = [request for request in plan.carried if not _covered(request, requests)]  # run by a source
    plan.run(requests)
    limit = instance.get_concurrency_config().run_queue_config.max_concurrent_runs
    how = f"at most {limit} at a time" if queue is not None else "one at a time in this process"
    for source in sources:
        runs = sum(1 for request in requests if request.job_name == source.job_name)
        if runs:
            echo(f"{source.name}: {runs} runs in {time.perf_counter() - started:.1f} s, {how}")
    _until_settled(plan, defs, instance, echo)
    if settled is not None:
        settled(plan.result)
    if train is not None:
        plan.run([train])
        _until_settled(plan, defs, instance, echo)
    if plan.result.success:
        save_cursor(instance, plan.cursor)
    return plan.result


def _until_settled(plan: Plan, defs, instance, echo) -> None:
    for _ in range(MAX_ROUNDS):
        requests, plan.cursor = automation_requests(defs, instance, plan.cursor)
        plan.updated = set()
        carried, plan.carried = plan.carried, []
        requests += [request for request in carried if not any(_same(request, other) for other in requests)]
        requests = [r for r in requests if (next(iter(r.assets)), r.partition) not in plan.failed_items]
        if not requests:
            return
        first = [request for request in requests if not request.assets & plan.last]
        if first:  # the views wait for the rest to settle: one refresh per build, not one per round
            plan.carried = [request for request in requests if request.assets & plan.last]
        plan.run(first or requests)
    echo(f"automation still requesting after {MAX_ROUNDS} rounds: stopped")
    plan.result.failed.append("automation (did not settle)")
