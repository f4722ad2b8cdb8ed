"""The arXiv and MAG assets, jobs, sensors and views load into the one code location, wired as the issue says."""

import dagster as dg
import duckdb
import pytest

from citeworth_assets.definitions import build_definitions
from citeworth_assets.resources import CiteworthSettings


def test_arxiv_and_mag_definitions_and_their_views():
    defs = build_definitions()
    graph = defs.resolve_asset_graph()
    keys = {key.to_user_string() for key in graph.get_all_asset_keys()}
    assert {
        "arxiv_papers",
        "arxiv_paragraphs",
        "arxiv_references",
        "arxiv_resolutions",
        "arxiv_contexts",
        "arxiv_context_export",
        "arxiv_duplicate_papers",
        "arxiv/duplicate_papers",
        "works",
        "work_references",
        "mag_fields_of_study",
        "arxiv/papers",
        "arxiv/references",
        "arxiv/contexts",
        "arxiv/papers_per_field",
        "arxiv/resolution_report",
        "arxiv/link_agreement",
        "mag/works",
        "mag/edges",
    } <= keys
    for name in ("unarxive_2020_sensor", "unarxive_2022_sensor", "catalogue_sensor"):
        assert defs.resolve_sensor_def(name).description
    for name in ("arxiv_file_job", "catalogue_job", "arxiv_export_job", "arxiv_warehouse_job"):
        assert defs.resolve_job_def(name).description
    parents = lambda *key: graph.get(dg.AssetKey(list(key))).parent_keys
    assert parents("arxiv", "references") == {  # each paper's items once: the kept occurrence's
        dg.AssetKey("arxiv_references"),
        dg.AssetKey("arxiv_resolutions"),
        dg.AssetKey("arxiv_duplicate_papers"),
    }
    assert parents("arxiv", "resolution_report") == {dg.AssetKey(["arxiv", "references"])}
    assert parents("arxiv_context_export") == {
        dg.AssetKey(k) for k in ("arxiv_contexts", "arxiv_papers", "works", "arxiv_duplicate_papers")
    }
    assert graph.get(dg.AssetKey("arxiv_papers")).partitions_def.name == "arxiv_dump_files"


@pytest.mark.slow
def test_the_views_build_over_an_empty_lake(tmp_path):
    """A build with S2ORC shards only still refreshes the arxiv.* and mag.* views (empty relations)."""
    defs = build_definitions(CiteworthSettings(dumps=str(tmp_path), data=str(tmp_path / "data")))
    with dg.instance_for_test() as instance:
        result = defs.resolve_job_def("arxiv_warehouse_job").execute_in_process(instance=instance, raise_on_error=False)
    assert result.success
    with duckdb.connect(str(tmp_path / "data" / "warehouse.duckdb"), read_only=True) as connection:
        assert connection.execute("SELECT count(*) FROM arxiv.resolution_report").fetchone() == (0,)
        assert connection.execute("SELECT count(*) FROM mag.works").fetchone() == (0,)
