"""The catalogue asset on OpenAlex's 2026 layout (materialized alone, in seconds): the 100 real works with their fields
and check; an OpenAlex folder without works parts is asked for by the build and fails it, naming the layouts looked
for, never an empty catalogue. (The whole graph on the 2026 and unarXive 2024 sample files: test_arxiv_graph.py.)"""

import shutil

import dagster as dg
import pyarrow.parquet as pq

from citeworth_assets.defs.mag.assets import mag_catalogue
from citeworth_assets.defs.mag.sensors import _pending_catalogue
from citeworth_assets.lib import lake
from citeworth_assets.lib.mag.openalex_snapshot import LAYOUTS
from citeworth_assets.resources import CiteworthSettings


def materialize(dumps, data):
    resource = CiteworthSettings(dumps=str(dumps), data=str(data), duckdb_memory="256MB")
    return dg.materialize([mag_catalogue], resources={"citeworth": resource}, raise_on_error=False), resource


def test_the_real_2026_works_are_the_catalogue_with_their_fields(shared_data, tmp_path):
    shutil.copytree(shared_data / "openalex-2026", tmp_path / "dumps" / "openalex")
    result, resource = materialize(tmp_path / "dumps", tmp_path / "data")
    assert result.success
    works = pq.read_table(lake.partition_dir(resource.settings.lake, "works")).to_pylist()
    assert len(works) == 100 and all(work["fields"] for work in works)
    [check] = result.get_asset_check_evaluations()
    assert check.passed  # every field is a static field partition


def test_an_openalex_folder_without_works_fails_naming_the_layouts(tmp_path):
    (tmp_path / "dumps" / "openalex" / "data" / "jsonl" / "authors").mkdir(parents=True)
    resource = CiteworthSettings(dumps=str(tmp_path / "dumps"), data=str(tmp_path / "data"))
    assert _pending_catalogue(None, resource.settings, False)[0] == [None]  # the build asks for the catalogue
    result, _ = materialize(tmp_path / "dumps", tmp_path / "data")
    assert not result.success
    [failure] = [event for event in result.all_events if event.event_type == dg.DagsterEventType.STEP_FAILURE]
    message = failure.step_failure_data.user_failure_data.description
    assert "no works part found" in message and all(layout in message for layout in LAYOUTS)
