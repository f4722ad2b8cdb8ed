"""The decision rules of the record of what was built, on recorded materializations (no build needed)."""

import os
import time

import dagster as dg

from citeworth_assets.defs.s2orc.built import SHARD_ASSETS, built_shards, input_version
from citeworth_assets.defs.s2orc.sensors import s2orc_dump_sensor
from citeworth_assets.lib.s2orc.shards import discover_shards
from citeworth_assets.resources import PlatformResource


def write_shard(root, index, data=b"x", age=3600):
    for kind in ("metadata", "pdf_parses"):
        path = root / "20200705v1" / "full" / kind / f"{kind}_{index}.jsonl.gz"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        os.utime(path, (time.time() - age,) * 2)


def record_build(instance, shard, rules="citeworth_2021", splitter="scispacy_pysbd", upto=None):
    """Materializations as the shard job leaves them (the first ``upto`` assets, as if the run failed after)."""
    for key in SHARD_ASSETS[:upto]:
        tags = {"dagster/data_version": input_version(shard)} if key.path == ["s2orc_papers"] else {}
        metadata = {"rule_set": rules, "splitter": splitter} if key.path == ["citeworth_paragraphs"] else {}
        instance.report_runless_asset_event(
            dg.AssetMaterialization(key, partition=shard.key, tags=tags, metadata=metadata)
        )


def test_a_shard_is_built_only_from_the_same_files_rules_and_splitter_and_a_complete_run(tmp_path):
    dumps = tmp_path / "dumps"
    for index in range(4):
        write_shard(dumps, index)
    shards = discover_shards(dumps)
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("s2orc_shards", [shard.key for shard in shards])
        record_build(instance, shards[0])
        record_build(instance, shards[1], rules="citeworth_improved_v1")
        record_build(instance, shards[2], upto=4)  # failed before the CiteWorth cleaning
        record_build(instance, shards[3])
        assert built_shards(instance, shards, "citeworth_2021", "scispacy_pysbd") == {"20200705v1_0", "20200705v1_3"}
        assert built_shards(instance, shards, "citeworth_improved_v1", "scispacy_pysbd") == {"20200705v1_1"}
        write_shard(dumps, 3, data=b"replaced", age=120)
        assert built_shards(instance, discover_shards(dumps), "citeworth_2021", "scispacy_pysbd") == {"20200705v1_0"}


def test_the_sensor_leaves_a_shard_with_a_queued_or_running_run_alone(tmp_path):
    dumps = tmp_path / "dumps"
    write_shard(dumps, 0)
    write_shard(dumps, 1)
    settings = PlatformResource(dumps=str(dumps), data=str(tmp_path / "data"), shard_settle_seconds=60)
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("s2orc_shards", ["20200705v1_0", "20200705v1_1"])
        instance.add_run(
            dg.DagsterRun(
                job_name="s2orc_shard_job",
                run_id="a" * 36,
                status=dg.DagsterRunStatus.STARTED,
                tags={"dagster/partition": "20200705v1_0"},
            )
        )
        result = s2orc_dump_sensor(dg.build_sensor_context(instance=instance, resources={"citeworth": settings}))
    assert [request.partition_key for request in result.run_requests] == ["20200705v1_1"]
