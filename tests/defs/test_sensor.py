import os
import time

import dagster as dg
from builders import sensor_context

from citeworth_assets.defs.s2orc.sensors import s2orc_dump_sensor


def shard(root, release, index, age=3600, data=b"x"):
    for kind in ("metadata", "pdf_parses"):
        path = root / release / "full" / kind / f"{kind}_{index}.jsonl.gz"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        os.utime(path, (time.time() - age,) * 2)


def evaluate(instance, dumps, data, cursor=None):
    return s2orc_dump_sensor(sensor_context(instance, dumps, data, cursor))


def test_sensor_adds_partitions_once_and_follows_replacements_and_new_releases(tmp_path):
    dumps = tmp_path / "dumps"
    shard(dumps, "20200705v1", 0)
    shard(dumps, "20200705v1", 1)
    shard(dumps, "20200705v1", 2, age=0)  # still being written
    with dg.instance_for_test() as instance:
        first = evaluate(instance, dumps, tmp_path / "data")
        assert [r.partition_key for r in first.run_requests] == ["20200705v1_0", "20200705v1_1"]
        (request,) = first.dynamic_partitions_requests
        assert list(request.partition_keys) == ["20200705v1_0", "20200705v1_1"]
        instance.add_dynamic_partitions("s2orc_shards", list(request.partition_keys))

        again = evaluate(instance, dumps, tmp_path / "data", first.cursor)
        assert isinstance(again, dg.SkipReason)

        shard(dumps, "20200705v1", 1, age=120, data=b"replaced")  # a re-downloaded shard runs again
        shard(dumps, "20210101", 0)  # a new release folder
        later = evaluate(instance, dumps, tmp_path / "data", first.cursor)
        assert sorted(r.partition_key for r in later.run_requests) == ["20200705v1_1", "20210101_0"]
        assert [list(r.partition_keys) for r in later.dynamic_partitions_requests] == [["20210101_0"]]
        assert len({r.run_key for r in [*first.run_requests, *later.run_requests]}) == 4


def test_sensor_skips_with_the_setting_name_when_the_dump_root_is_missing(tmp_path):
    with dg.instance_for_test() as instance:
        result = evaluate(instance, tmp_path / "nowhere", tmp_path / "data")
    assert isinstance(result, dg.SkipReason) and "CITEWORTH_DUMPS" in result.skip_message


def test_sensor_on_a_hundred_shards(tmp_path):
    dumps = tmp_path / "dumps"
    for index in range(100):
        shard(dumps, "20200705v1", index)
    with dg.instance_for_test() as instance:
        started = time.perf_counter()
        result = evaluate(instance, dumps, tmp_path / "data")
        seconds = time.perf_counter() - started
    assert len(result.run_requests) == 100
    assert len(result.dynamic_partitions_requests[0].partition_keys) == 100
    print(f"sensor evaluation over 100 shards: {seconds * 1000:.1f} ms")
