"""The eager conditions carry a new source dump through without a job list: the daemon's evaluation requests its
conversion, and once converted, the ingestion of the dump file the conversion registered."""

import dagster as dg
import pytest

from citeworth_assets.definitions import build_definitions
from citeworth_assets.lib.arxiv_sources.source_dumps import SOURCE_DIR
from citeworth_assets.resources import CiteworthSettings
from citeworth_assets.samples.arxiv_sources import write_source_dump
from citeworth_assets.samples.mag import sample_works

pytestmark = pytest.mark.slow
QUIET = {"loggers": {"console": {"config": {"log_level": "WARNING"}}}}


def requested(defs, result) -> dict[str, set]:
    keys = defs.resolve_asset_graph().get_all_asset_keys()
    return {k.to_user_string(): set(result.get_requested_partitions(k)) for k in keys if result.get_num_requested(k)}


def test_a_new_source_dump_is_converted_then_ingested(tmp_path):
    write_source_dump(tmp_path / "dumps" / SOURCE_DIR, sample_works(13, 200), papers=2, seed=1)
    defs = build_definitions(CiteworthSettings(dumps=str(tmp_path / "dumps"), data=str(tmp_path / "data")))
    selection = dg.AssetSelection.groups("arxiv_sources", "arxiv")
    with dg.instance_for_test() as instance:
        idle = dg.evaluate_automation_conditions(defs=defs, instance=instance, asset_selection=selection)
        assert idle.total_requested == 0
        instance.add_dynamic_partitions("arxiv_source_dumps", ["arxiv_src_2101_001"])
        tick = dg.evaluate_automation_conditions(
            defs=defs, instance=instance, asset_selection=selection, cursor=idle.cursor
        )
        assert requested(defs, tick) == {
            "arxiv_source_papers": {"arxiv_src_2101_001"},
            "arxiv_source_outcomes": {"arxiv_src_2101_001"},
        }
        job = defs.resolve_job_def("arxiv_source_job")
        assert job.execute_in_process(partition_key="arxiv_src_2101_001", instance=instance, run_config=QUIET).success
        after = dg.evaluate_automation_conditions(
            defs=defs, instance=instance, asset_selection=selection, cursor=tick.cursor
        )
        dump_file = {"unarxive_2022_arxiv_src_2101_001_latex"}
        assert requested(defs, after) == {
            "arxiv_papers": dump_file,
            "arxiv_paragraphs": dump_file,
            "arxiv_references": dump_file,
        }
