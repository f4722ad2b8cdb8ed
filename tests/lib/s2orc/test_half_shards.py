"""Defect 3 of issue 10: a half shard (one file missing or empty) is listed, never skipped in silence."""

import gzip
import json
import os
import time

import dagster as dg
import pytest
from click.testing import CliRunner

from citeworth_assets.cli import main
from citeworth_assets.defs.s2orc.sensors import s2orc_dump_sensor
from citeworth_assets.lib.s2orc.shards import discover_shards, incomplete_shards
from citeworth_assets.resources import PlatformResource


def put(root, kind, index, data: bytes, age=3600, release="20200705v1"):
    path = root / release / "full" / kind / f"{kind}_{index}.jsonl.gz"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    os.utime(path, (time.time() - age,) * 2)


LINE = gzip.compress(json.dumps({"paper_id": "1"}).encode() + b"\n")


def half_dump(root):
    put(root, "metadata", 0, LINE)
    put(root, "pdf_parses", 0, LINE)
    put(root, "metadata", 1, LINE)
    put(root, "pdf_parses", 1, b"")  # empty
    put(root, "metadata", 2, LINE)  # no pdf_parses
    put(root, "metadata", 3, LINE)
    put(root, "pdf_parses", 3, gzip.compress(b""))  # a gzip of nothing
    put(root, "pdf_parses", 4, LINE, age=0)  # still arriving: not a problem yet
    put(root, "pdf_parses", 5, LINE)  # no metadata


def test_half_shards_are_listed_with_their_problem(tmp_path):
    half_dump(tmp_path)
    halves = {half.key: half.problem for half in incomplete_shards(tmp_path, settle_seconds=60)}
    assert halves == {
        "20200705v1_1": "pdf_parses_1.jsonl.gz is empty",
        "20200705v1_2": "pdf_parses_2.jsonl.gz is missing",
        "20200705v1_3": "pdf_parses_3.jsonl.gz is empty",
        "20200705v1_5": "metadata_5.jsonl.gz is missing",
    }
    assert "20200705v1_0" in [shard.key for shard in discover_shards(tmp_path)]


def test_the_sensor_logs_half_shards_once_and_does_not_run_them(tmp_path):
    half_dump(tmp_path / "dumps")
    settings = PlatformResource(dumps=str(tmp_path / "dumps"), data=str(tmp_path / "data"), shard_settle_seconds=60)
    with dg.instance_for_test() as instance:
        context = dg.build_sensor_context(instance=instance, resources={"citeworth": settings})
        result = s2orc_dump_sensor(context)
        assert [r.partition_key for r in result.run_requests] == ["20200705v1_0"]
        cursor = json.loads(result.cursor)
        assert set(cursor["_incomplete"]) == {"20200705v1_1", "20200705v1_2", "20200705v1_3", "20200705v1_5"}
        again = s2orc_dump_sensor(
            dg.build_sensor_context(instance=instance, cursor=result.cursor, resources={"citeworth": settings})
        )
        skip = again if isinstance(again, dg.SkipReason) else again.skip_reason
        assert "4 incomplete" in str(skip) and "pdf_parses_2.jsonl.gz is missing" in str(skip)


@pytest.mark.ops  # a whole build over an empty lake (about 20 s): with the operational tests
def test_build_lists_half_shards_and_fails_unless_told_to_skip(tmp_path, monkeypatch):
    half_dump(tmp_path / "dumps")
    os.remove(tmp_path / "dumps" / "20200705v1" / "full" / "metadata" / "metadata_0.jsonl.gz")
    os.remove(tmp_path / "dumps" / "20200705v1" / "full" / "pdf_parses" / "pdf_parses_0.jsonl.gz")
    for kind in ("metadata", "pdf_parses"):  # both files of a shard unpacked into folders of their names
        (tmp_path / "dumps" / "20200705v1" / "full" / kind / f"{kind}_6.jsonl.gz").mkdir()
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "home"))
    # Only half shards: nothing to build, and the message lists them.
    result = CliRunner().invoke(main, ["build", "--dumps", str(tmp_path / "dumps"), "--data", str(tmp_path / "data")])
    assert result.exit_code != 0
    assert "incomplete shard 20200705v1_2: pdf_parses_2.jsonl.gz is missing" in result.output
    assert "incomplete shard 20200705v1_6: metadata_6.jsonl.gz is a directory, not a file" in result.output
