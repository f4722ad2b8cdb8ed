"""`citeworth build --workers 2` gives the lake of `--workers 1`, and its shard runs are runs of the instance."""

import dagster as dg
import pytest
from click.testing import CliRunner

from citeworth_assets.cli import main
from citeworth_assets.lib import lake
from citeworth_assets.samples.s2orc import generate_sample_dump

pytestmark = pytest.mark.slow  # two builds of a three-shard dump


def test_two_workers_build_the_lake_of_one(tmp_path, monkeypatch):
    dumps = tmp_path / "dumps"
    generate_sample_dump(dumps, papers=60, shards=3, seed=9)
    lakes = {}
    for workers in (1, 2):
        data = tmp_path / f"data_{workers}"
        monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / f"home_{workers}"))
        result = CliRunner().invoke(
            main, ["build", "--dumps", str(dumps), "--data", str(data), "--workers", str(workers)]
        )
        assert result.exit_code == 0, result.output
        assert "shards: 3 runs in" in result.output and f"at most {workers} at a time" in result.output
        assert all(f"[{n}/3] 20200705v1_{n - 1}: " in result.output for n in (1, 2, 3))
        lakes[workers] = lake.sorted_rows(data / "lake")
        with dg.DagsterInstance.get() as instance:
            for job in ("s2orc_shard_job", "sciqfs_shard_job"):  # ROUGE-SciQFS partitions: queued runs as well
                runs = instance.get_run_records(dg.RunsFilter(job_name=job, statuses=[dg.DagsterRunStatus.SUCCESS]))
                assert sorted(r.dagster_run.tags["dagster/partition"] for r in runs) == [
                    f"20200705v1_{i}" for i in range(3)
                ]
    assert sorted(lakes[1]) == sorted(lakes[2]) and len(lakes[1]) > 15
    assert [name for name in lakes[1] if lakes[1][name] != lakes[2][name]] == []
    assert lakes[1]["s2orc_papers"] and lakes[1]["citeworth_paragraphs"] and lakes[1]["sciqfs_examples"]
