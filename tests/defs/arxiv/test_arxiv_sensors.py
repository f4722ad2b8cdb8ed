"""The unarXive and catalogue sensors: a partition and a run per settled dump file, again only when it changes."""

import os
import time

import dagster as dg
from builders import sensor_context

from citeworth_assets.defs.arxiv.sensors import arxiv_sensors
from citeworth_assets.defs.mag.sensors import catalogue_sensor
from citeworth_assets.lib.arxiv.dump_files import discover_dump_files, dump_key, find_dump_file

SENSOR_2020, SENSOR_2022 = arxiv_sensors


def put(path, data=b"x", age=3600):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    os.utime(path, (time.time() - age,) * 2)


def evaluate(sensor, instance, dumps, cursor=None):
    return sensor(sensor_context(instance, dumps, dumps.parent / "data", cursor))


def test_partition_keys_are_valid_and_found_again(tmp_path):
    assert dump_key("unarxive-2022", "arXiv_src_2212_086.first20.jsonl") == "unarxive_2022_arxiv_src_2212_086_first20"
    assert dump_key("unarxive-2020", "unarXive-2020.tar.bz2") == "unarxive_2020_unarxive_2020"
    put(tmp_path / "unarxive-2022" / "a.jsonl")
    put(tmp_path / "unarxive-2022" / "a.jsonl.gz")  # the compressed form wins
    put(tmp_path / "unarxive-2022" / "notes.txt")
    put(tmp_path / "unarxive-2020" / "empty" / "refs.db")  # a folder without any .txt is no dump
    assert [d.path.name for d in discover_dump_files(tmp_path)] == ["a.jsonl.gz"]
    assert find_dump_file(tmp_path, "unarxive_2022_a").path.name == "a.jsonl.gz"


def test_2022_sensor_adds_settled_files_once_and_reruns_replaced_ones(tmp_path):
    dumps = tmp_path / "dumps"
    put(dumps / "unarxive-2022" / "a.jsonl.gz")
    put(dumps / "unarxive-2022" / "b.jsonl.gz", age=0)  # still being written
    with dg.instance_for_test() as instance:
        first = evaluate(SENSOR_2022, instance, dumps)
        assert [r.partition_key for r in first.run_requests] == ["unarxive_2022_a"]
        assert [list(r.partition_keys) for r in first.dynamic_partitions_requests] == [["unarxive_2022_a"]]
        instance.add_dynamic_partitions("arxiv_dump_files", ["unarxive_2022_a"])
        assert isinstance(evaluate(SENSOR_2022, instance, dumps, first.cursor), dg.SkipReason)
        put(dumps / "unarxive-2022" / "a.jsonl.gz", data=b"replaced", age=120)
        put(dumps / "unarxive-2022" / "b.jsonl.gz", age=120)
        later = evaluate(SENSOR_2022, instance, dumps, first.cursor)
        assert sorted(r.partition_key for r in later.run_requests) == ["unarxive_2022_a", "unarxive_2022_b"]
        assert [list(r.partition_keys) for r in later.dynamic_partitions_requests] == [["unarxive_2022_b"]]
        # the 2020 sensor watches its own folder only
        assert isinstance(evaluate(SENSOR_2020, instance, dumps), dg.SkipReason)


def test_2020_sensor_waits_for_every_file_of_a_folder(tmp_path):
    dumps = tmp_path / "dumps"
    put(dumps / "unarxive-2020" / "papers" / "1701.00001.txt")
    put(dumps / "unarxive-2020" / "papers" / "refs.db", age=0)
    put(dumps / "unarxive-2020" / "part.tar.gz")
    with dg.instance_for_test() as instance:
        result = evaluate(SENSOR_2020, instance, dumps)
        assert [r.partition_key for r in result.run_requests] == ["unarxive_2020_part"]
        put(dumps / "unarxive-2020" / "papers" / "refs.db", age=120)
        later = evaluate(SENSOR_2020, instance, dumps, result.cursor)
        assert [r.partition_key for r in later.run_requests] == ["unarxive_2020_papers"]


def test_catalogue_sensor_runs_once_per_change(tmp_path):
    dumps = tmp_path / "dumps"
    with dg.instance_for_test() as instance:
        assert isinstance(evaluate(catalogue_sensor, instance, dumps), dg.SkipReason)  # no dump root
        put(dumps / "mag" / "Papers.txt")
        put(dumps / "mag" / "Other.txt")  # not a MAG file the catalogue reads
        first = evaluate(catalogue_sensor, instance, dumps)
        assert len(first.run_requests) == 1 and '"mag/Papers.txt"' in first.cursor and "Other" not in first.cursor
        assert isinstance(evaluate(catalogue_sensor, instance, dumps, first.cursor), dg.SkipReason)
        put(dumps / "openalex" / "works" / "updated_date=2023-01-01" / "part_000.gz", age=0)
        assert isinstance(evaluate(catalogue_sensor, instance, dumps, first.cursor), dg.SkipReason)  # not settled
        put(dumps / "openalex" / "works" / "updated_date=2023-01-01" / "part_000.gz", age=120)
        later = evaluate(catalogue_sensor, instance, dumps, first.cursor)
        assert len(later.run_requests) == 1 and later.run_requests[0].run_key != first.run_requests[0].run_key
