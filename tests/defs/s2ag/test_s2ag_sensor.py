"""The S2ORC dump sensor takes S2AG full-text files as shards, once their release's papers and abstracts are staged;
the staging sensor asks for a run when those change."""

import os
import sys
import time
from pathlib import Path

import dagster as dg
from builders import sensor_context

sys.path.insert(0, str(Path(__file__).parents[2] / "lib" / "s2ag"))
from s2ag_helpers import write_lines  # noqa: E402

from citeworth_assets.defs.s2ag.metadata import s2ag_metadata_sensor  # noqa: E402
from citeworth_assets.defs.s2orc.sensors import s2orc_dump_sensor  # noqa: E402
from citeworth_assets.lib.jsonl import IssueLog  # noqa: E402
from citeworth_assets.lib.s2ag import staging  # noqa: E402

KEY = "s2ag_2024_01_02_s2orc_part_0"


def _aged(path: Path, age: float = 3600) -> None:
    os.utime(path, (time.time() - age,) * 2)


def test_an_s2ag_file_is_a_shard_once_its_metadata_is_staged(tmp_path):
    dumps, data = tmp_path / "dumps", tmp_path / "data"
    release = dumps / "s2ag" / "2024-01-02"
    record = {"corpusid": 1, "content": {"text": "x", "annotations": {}}}
    _aged(write_lines(release / "s2orc" / "part-0.jsonl.gz", [record]))
    _aged(write_lines(release / "s2orc" / "part-1.jsonl.gz.tmp", [record]))  # a download under way
    _aged(write_lines(release / "papers" / "papers-0.jsonl.gz", [{"corpusid": 1, "title": "t"}]))
    with dg.instance_for_test() as instance:
        staged = s2ag_metadata_sensor(sensor_context(instance, dumps, data))
        assert len(staged.run_requests) == 1
        waiting = s2orc_dump_sensor(sensor_context(instance, dumps, data))
        assert isinstance(waiting, dg.SkipReason)  # its papers are not staged yet
        staging.stage_all(data / "lake", dumps, IssueLog())
        result = s2orc_dump_sensor(sensor_context(instance, dumps, data))
        assert [r.partition_key for r in result.run_requests] == [KEY]
        assert [list(r.partition_keys) for r in result.dynamic_partitions_requests] == [[KEY]]
        assert isinstance(s2ag_metadata_sensor(sensor_context(instance, dumps, data, staged.cursor)), dg.SkipReason)
