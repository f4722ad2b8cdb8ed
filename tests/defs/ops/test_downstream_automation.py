"""Downstream follows: after a burst of shard runs, the automation sensor's evaluation requests every asset computed
from shards once (nothing while a shard run is still queued); running what it requests, tick after tick, leaves
everything but the models materialized, and a further tick requests nothing. A run killed on the way is asked for
again by the first evaluation of the daemon that opens the instance next (issue 33 item 1)."""

from collections import defaultdict

import dagster as dg
import pytest

from citeworth_assets.build.dagster_internals import partition_range_tags
from citeworth_assets.cli.app import QUIET_RUN
from citeworth_assets.definitions import build_definitions
from citeworth_assets.defs.automation import automation_sensor
from citeworth_assets.resources import PlatformResource
from citeworth_assets.samples.s2orc import generate_sample_dump

pytestmark = [pytest.mark.slow, pytest.mark.ops]  # builds a small dump and its whole graph


def requested(defs, result) -> dict[dg.AssetKey, set]:
    keys = defs.resolve_asset_graph().get_all_asset_keys()
    return {key: set(result.get_requested_partitions(key)) for key in keys if result.get_num_requested(key)}


def run_requested(defs, instance, wanted: dict[dg.AssetKey, set]) -> None:
    """Run one tick's requests as the automation sensor's backfill would: each partition's assets together, in
    dependency order (unpartitioned ones last within the order of their levels); assets whose backfill policy is
    single_run take all their requested partitions in one run (a partition range)."""
    graph = defs.resolve_asset_graph()
    for level in graph.toposorted_asset_keys_by_level:
        by_partition, ranged = defaultdict(list), defaultdict(list)
        for key in level:
            single = graph.get(key).backfill_policy == dg.BackfillPolicy.single_run()
            for partition in wanted.get(key, ()):
                (ranged if single and partition is not None else by_partition)[partition].append(key)
        runs = [(keys, partition, {}) for partition, keys in sorted(by_partition.items(), key=lambda i: str(i[0]))]
        if ranged:
            keys = sorted({key for group in ranged.values() for key in group})
            order = graph.get(keys[0]).partitions_def.get_partition_keys()
            first, last = min(ranged, key=order.index), max(ranged, key=order.index)
            runs.append((keys, None, partition_range_tags(first, last)))
        for keys, partition, tags in runs:
            job = defs.resolve_implicit_job_def_def_for_assets(keys)
            result = job.execute_in_process(
                instance=instance,
                asset_selection=keys,
                partition_key=partition,
                run_config=QUIET_RUN,
                tags=tags,
                raise_on_error=False,
            )
            assert result.success, (keys, partition, tags)


def test_new_shards_bring_everything_but_the_models_up_to_date(tmp_path):
    dumps, data = tmp_path / "dumps", tmp_path / "data"
    data.mkdir()
    generate_sample_dump(dumps, papers=60, shards=2, seed=11)
    defs = build_definitions(PlatformResource(dumps=str(dumps), data=str(data)))
    target = automation_sensor.asset_selection
    with dg.instance_for_test() as instance:
        idle = dg.evaluate_automation_conditions(defs=defs, instance=instance, asset_selection=target)
        # The daemon ticks before any shard exists: only the missing warehouse views are requested (created empty),
        # and the papers' tables over them (each cell then says what to build).
        views = dg.AssetSelection.groups("warehouse", "reproduce").resolve(defs.resolve_asset_graph())
        assert idle.total_requested > 0 and set(requested(defs, idle)) <= views
        keys = ["20200705v1_0", "20200705v1_1"]
        instance.add_dynamic_partitions("s2orc_shards", keys)
        shard_job = defs.resolve_job_def("s2orc_shard_job")
        assert shard_job.execute_in_process(partition_key=keys[0], instance=instance, run_config=QUIET_RUN).success
        # The second shard has a run waiting to start: nothing that reads every shard may start yet (batching).
        queued = instance.create_run_for_job(
            shard_job,
            status=dg.DagsterRunStatus.NOT_STARTED,
            tags={"dagster/partition": keys[1]},
            asset_selection=frozenset(shard_job.asset_layer.executable_asset_keys),
        )
        waiting = dg.evaluate_automation_conditions(
            defs=defs, instance=instance, asset_selection=target, cursor=idle.cursor
        )
        assert not {"citeworth_field_paragraphs", "citeworth_dataset", "s2orc_duplicate_papers"} & {
            key.to_user_string() for key in requested(defs, waiting)
        }
        instance.delete_run(queued.run_id)
        assert shard_job.execute_in_process(partition_key=keys[1], instance=instance, run_config=QUIET_RUN).success

        cursor, ticks, runs_per_asset, killed = waiting.cursor, 0, defaultdict(int), set()
        candidates = {dg.AssetKey("citesum_candidates"), dg.AssetKey("citesum_drops")}  # (one run per shard)
        while True:
            tick = dg.evaluate_automation_conditions(
                defs=defs, instance=instance, asset_selection=target, cursor=cursor
            )
            cursor, wanted = tick.cursor, requested(defs, tick)
            if not wanted and killed:
                # Issue 33 item 1: the run of one shard's CiteSum candidates was killed, and eager never asks for it
                # again (nothing upstream updates), so the CiteSum dataset waits for ever. `citeworth ui` opened on
                # this instance: the automation sensor's first evaluation asks for what was left missing.
                for key in killed:
                    records = dg.AssetRecordsFilter(asset_key=key, asset_partitions=[keys[1]])
                    assert not instance.fetch_materializations(records, limit=1).records
                assert instance.get_latest_materialization_event(dg.AssetKey("citesum_dataset")) is None
                tick = dg.evaluate_automation_conditions(defs=defs, instance=instance, asset_selection=target)
                cursor, wanted, killed = tick.cursor, requested(defs, tick), set()
                assert {candidate: {keys[1]} for candidate in candidates}.items() <= wanted.items()
            if not wanted:
                break
            if not runs_per_asset["citesum_candidates"] and wanted.get(dg.AssetKey("citesum_candidates")):
                killed = {key for key in candidates if keys[1] in wanted[key]}
                for key in killed:  # the run of shard 2's candidates: killed before it wrote anything
                    wanted[key] = wanted[key] - {keys[1]}
            ticks += 1
            assert ticks < 12, wanted
            for key, partitions in wanted.items():
                runs_per_asset[key.to_user_string()] += len(partitions)
            run_requested(defs, instance, wanted)

        graph = defs.resolve_asset_graph()
        models = graph.get_all_asset_keys() - target.resolve(graph)
        assert {key.to_user_string() for key in models} >= {"model_transformer", "citeworth_tiny_encoder"}
        other_sources = dg.AssetSelection.groups("arxiv", "mag", "arxiv_sources").downstream().resolve(graph)
        unbuilt = {
            key.to_user_string()
            for key in target.resolve(graph)
            if instance.get_latest_materialization_event(key) is None
            and not any(parent in models for parent in graph.get(key).parent_keys)
            and graph.get(key).parent_keys  # views of code and files (drop reasons, judgements): nothing to follow
            and graph.get(key).automation_condition is not None  # built by their own jobs (citrec)
            and key not in other_sources  # arXiv/MAG/LaTeX sources: not in this dump root
        }
        assert unbuilt == set()
        assert all(instance.get_latest_materialization_event(key) is None for key in models)
        # One rebuild of each dataset after the burst; each field partition once; each shard's CiteSum candidates once.
        assert runs_per_asset["citeworth_dataset"] == 1 and runs_per_asset["citesum_dataset"] == 1
        assert runs_per_asset["citeworth_field_paragraphs"] == 19
        assert runs_per_asset["citesum_candidates"] == 2
        # ROUGE-SciQFS per shard, then one release and one scoring of the untrained baselines (in every build)
        assert runs_per_asset["sciqfs_s2orc_examples"] == 2 and runs_per_asset["sciqfs_release"] == 1
        assert runs_per_asset["sciqfs_ranking_baselines"] == 1
        print(f"automation: {ticks} ticks, {sum(runs_per_asset.values())} asset partitions materialized")
