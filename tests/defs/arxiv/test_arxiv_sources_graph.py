"""End to end from a bulk LaTeX source dump to citation contexts (Saier 2019 §4.2): the daemon's evaluation of the
eager conditions requests the new dump's conversion, then the ingestion of the dump file the conversion registered;
the build converts, ingests, resolves against the sample catalogue and extracts contexts; a rebuild writes the same
bytes and no duplicate rows."""

import hashlib

import dagster as dg
import pytest
from arxiv_graph_helpers import latest_metadata, query

from citeworth_assets.definitions import build_definitions
from citeworth_assets.defs.arxiv_sources.sensors import arxiv_source_sensor
from citeworth_assets.defs.mag.sensors import catalogue_sensor
from citeworth_assets.lib.arxiv.dump_files import MAG_DIR
from citeworth_assets.lib.arxiv_sources.source_dumps import SOURCE_DIR
from citeworth_assets.resources import PlatformResource
from citeworth_assets.samples.arxiv_sources import write_source_dump
from citeworth_assets.samples.mag import sample_works, write_mag_dump

pytestmark = pytest.mark.slow
SOURCE_KEY, DUMP_KEY = "arxiv_src_2101_001", "unarxive_2022_arxiv_src_2101_001_latex"
QUIET = {"loggers": {"console": {"config": {"log_level": "WARNING"}}}}


def requested(defs, result) -> dict[str, set]:
    keys = defs.resolve_asset_graph().get_all_asset_keys()
    return {k.to_user_string(): set(result.get_requested_partitions(k)) for k in keys if result.get_num_requested(k)}


def test_a_source_dump_flows_through_the_graph_to_contexts(tmp_path, build_graph):
    works = sample_works(13, 200)
    write_mag_dump(tmp_path / "dumps" / MAG_DIR, works, [])
    written = write_source_dump(tmp_path / "dumps" / SOURCE_DIR, works, papers=4, seed=5)
    defs = build_definitions(PlatformResource(dumps=str(tmp_path / "dumps"), data=str(tmp_path / "data")))
    selection = dg.AssetSelection.groups("arxiv_sources", "arxiv")
    with dg.instance_for_test() as instance:
        idle = dg.evaluate_automation_conditions(defs=defs, instance=instance, asset_selection=selection)
        assert idle.total_requested == 0
        instance.add_dynamic_partitions("arxiv_source_dumps", [SOURCE_KEY])
        tick = dg.evaluate_automation_conditions(
            defs=defs, instance=instance, asset_selection=selection, cursor=idle.cursor
        )
        assert requested(defs, tick) == {"arxiv_source_papers": {SOURCE_KEY}, "arxiv_source_outcomes": {SOURCE_KEY}}
        job = defs.resolve_job_def("arxiv_source_job")
        assert job.execute_in_process(partition_key=SOURCE_KEY, instance=instance, run_config=QUIET).success
        after = dg.evaluate_automation_conditions(
            defs=defs, instance=instance, asset_selection=selection, cursor=tick.cursor
        )
        ingestion = {"arxiv_papers", "arxiv_paragraphs", "arxiv_references"}
        assert requested(defs, after) == {key: {DUMP_KEY} for key in ingestion}

    # `citeworth build` (its build plan, on the data root's own instance) converts, ingests, resolves, extracts
    settings, result, instance, _ = build_graph(tmp_path / "dumps", tmp_path / "data")
    assert result.failed == []
    outcomes = dict(query(settings, "SELECT arxiv_id, outcome FROM arxiv.source_outcomes"))
    assert outcomes == {**{i: "converted" for i in written["papers"]}, **written["damaged"]}
    assert latest_metadata(instance, "arxiv_source_papers", SOURCE_KEY)["arxiv_dump_file"] == DUMP_KEY
    assert query(settings, "SELECT count(*), sum(n_markers) FROM arxiv.papers") == [(4, 28)]
    assert query(settings, "SELECT count(resolved_mag_id), count(*) FROM arxiv.references") == [(28, 28)]
    contexts = query(settings, "SELECT count(*), count(DISTINCT citing_paper_id) FROM arxiv.contexts")[0]
    assert contexts == (28, 4)
    converted = tmp_path / "data" / "converted" / "unarxive-2022" / "arXiv_src_2101_001.latex.jsonl.gz"
    first = hashlib.sha256(converted.read_bytes()).hexdigest()
    settings, result, *_ = build_graph(tmp_path / "dumps", tmp_path / "data")
    assert result.failed == [] and hashlib.sha256(converted.read_bytes()).hexdigest() == first
    # `citeworth ui` opened now: the source and catalogue sensors request nothing for the bytes the builds read
    citeworth = PlatformResource(dumps=str(tmp_path / "dumps"), data=str(tmp_path / "data"), shard_settle_seconds=0)
    for sensor in (arxiv_source_sensor, catalogue_sensor):
        evaluated = sensor(dg.build_sensor_context(instance=instance, resources={"citeworth": citeworth}))
        assert isinstance(evaluated, dg.SkipReason), (sensor.name, evaluated)
    assert query(settings, "SELECT count(*) FROM arxiv.contexts") == [(28,)]
