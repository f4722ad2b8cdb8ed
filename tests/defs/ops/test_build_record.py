"""One record of what was built: after `citeworth build`, the dump sensor reading the same instance requests no
run; a replaced file is requested once, and the next build rebuilds only that shard."""

import os
import time

import dagster as dg
import pytest
from click.testing import CliRunner

from citeworth_assets.cli import main
from citeworth_assets.defs.s2orc.sensors import s2orc_dump_sensor
from citeworth_assets.instance import dagster_instance
from citeworth_assets.lib.settings import Settings
from citeworth_assets.resources import CiteworthSettings
from citeworth_assets.samples.s2orc import generate_sample_dump

pytestmark = pytest.mark.slow  # builds a small dump end to end


def sensor_requests(instance, dumps, data, cursor=None, rules="citeworth_2021"):
    settings = CiteworthSettings(dumps=str(dumps), data=str(data), rules=rules, shard_settle_seconds=0)
    result = s2orc_dump_sensor(
        dg.build_sensor_context(instance=instance, cursor=cursor, resources={"citeworth": settings})
    )
    return [] if isinstance(result, dg.SkipReason) else result.run_requests


def test_the_sensor_and_a_rebuild_agree_with_what_build_recorded(tmp_path, monkeypatch):
    dumps, data = tmp_path / "dumps", tmp_path / "data"
    generate_sample_dump(dumps, papers=40, shards=2, seed=5)
    monkeypatch.delenv("DAGSTER_HOME", raising=False)  # the instance of the data root, as `make demo` / `make ui`
    first = CliRunner().invoke(main, ["build", "--dumps", str(dumps), "--data", str(data)])
    assert first.exit_code == 0, first.output
    assert "building 2 of 2 shards" in first.output

    instance = dagster_instance(Settings.resolve(dumps=str(dumps), data=str(data)))
    assert os.environ["DAGSTER_HOME"] == str(data / "dagster_home")
    assert sensor_requests(instance, dumps, data) == []  # `citeworth ui` after a build launches no shard run

    replaced = dumps / "20200705v1" / "full" / "pdf_parses" / "pdf_parses_1.jsonl.gz"
    replaced.write_bytes(replaced.read_bytes())
    os.utime(replaced, (time.time() - 100,) * 2)
    requests = sensor_requests(instance, dumps, data)
    assert [request.partition_key for request in requests] == ["20200705v1_1"]

    again = CliRunner().invoke(main, ["build", "--dumps", str(dumps), "--data", str(data)])
    assert again.exit_code == 0, again.output
    assert "building 1 of 2 shards" in again.output
    assert "20200705v1_0: built from these files already" in again.output
    assert sensor_requests(instance, dumps, data) == []

    # Another rule set's cleaning is not built yet: the sensor configured with it would run both shards.
    assert len(sensor_requests(instance, dumps, data, rules="citeworth_improved")) == 2
