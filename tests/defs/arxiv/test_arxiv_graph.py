"""End to end on the generated arXiv/MAG/OpenAlex sample dump: every source materialized in-process with a real
Dagster instance, the lake, the warehouse views and the export checked; a rerun replaces, never duplicates."""

import hashlib

import dagster as dg
import pytest
from arxiv_graph_helpers import latest_metadata, query

from citeworth_assets.cli.arxiv import write_sample_dumps
from citeworth_assets.defs.arxiv.sensors import arxiv_sensors
from citeworth_assets.defs.mag.sensors import catalogue_sensor
from citeworth_assets.lib.citrec.contexts import read_catalogue, read_contexts
from citeworth_assets.lib.read_issues import IssueLog
from citeworth_assets.resources import PlatformResource

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def built(tmp_path_factory, build_graph):
    root = tmp_path_factory.mktemp("arxiv_graph")
    summary = write_sample_dumps(root / "dumps", papers_2020=30, papers_2022=20)
    settings, result, instance, defs = build_graph(root / "dumps", root / "data")
    yield settings, result.failed, defs, instance, summary


def test_every_source_is_built_and_counted(built):
    settings, failed, _, instance, summary = built
    assert failed == []
    assert query(settings, "SELECT release, count(*) FROM arxiv.papers GROUP BY 1 ORDER BY 1") == [
        ("unarxive-2020", summary["papers_2020"]),
        ("unarxive-2022", summary["papers_2022"]),
        ("unarxive-2024", summary["papers_2024"]),  # the 2024 file in the same folder, told apart by shape
    ]
    # the damaged 2020 folder adds one bibitem with bad bytes to the generated references
    references = query(settings, "SELECT release, count(*) FROM arxiv.references GROUP BY 1 ORDER BY 1")
    assert references == [
        ("unarxive-2020", summary["references_2020"] + 1),
        ("unarxive-2022", summary["references_2022"]),
        ("unarxive-2024", summary["references_2024"]),
    ]
    works = query(settings, "SELECT source, count(*) FROM mag.works GROUP BY 1 ORDER BY 1")
    # + the invalid UTF-8 line, kept; OpenAlex: the layout before 2026 and the 2026 snapshot's works
    assert works == [("mag", summary["works"] + 1), ("openalex", summary["works"] + summary["works_2026"])]
    in_catalogue = 2 * summary["edges"] + summary["edges_2026_in_catalogue"]
    assert query(settings, "SELECT count(*) FROM mag.edges WHERE cited_in_catalogue") == [(in_catalogue,)]
    paragraphs = query(settings, "SELECT count(*), count(DISTINCT paper_id) FROM arxiv.paragraphs")[0]
    papers = summary["papers_2020"] + summary["papers_2022"] + summary["papers_2024"]
    assert paragraphs[0] > paragraphs[1] >= papers - 1


def test_damage_in_the_sample_is_counted_not_fatal(built):
    settings, *_ = built
    arxiv = dict(query(settings, "SELECT kind, count(*) FROM arxiv.read_issues GROUP BY 1"))
    assert {"no_citation_markers", "marker_without_bibitem", "invalid_utf8"} <= set(arxiv)
    mag = dict(query(settings, "SELECT kind, count(*) FROM mag.read_issues GROUP BY 1"))
    assert mag == {
        "too_few_columns": 1,
        "invalid_utf8": 1,
        "bad_value": 1,
        "copy_not_read": 1,
        "short_part": 1,
        "bad_type": 2,
    }


def test_resolution_report_and_agreement_with_the_shipped_links(built):
    settings, _, _, instance, _ = built
    report = query(
        settings, "SELECT outcome, route_or_reason, items, share FROM arxiv.resolution_report WHERE release = 'all'"
    )
    routes = {route for outcome, route, _, _ in report if outcome == "resolved"}
    assert routes == {"arxiv_id", "doi", "title"}
    assert abs(sum(share for *_, share in report) - 1) < 1e-3
    agreement = query(
        settings, "SELECT release, same, different, shipped_only, ours_only, agreement FROM arxiv.link_agreement"
    )
    print("\ngenerated sample, resolver vs shipped links:", agreement)
    for release, same, different, *_, share in agreement:
        assert same > 0 and different == 0 and share == 1.0, release
    # the MAG's noise link (the "hep-th" paper) is shipped but never made by the resolver
    noise = query(settings, "SELECT count(*), count(work_id) FROM arxiv.references WHERE linked_mag_id = '2811252340'")
    assert noise[0][0] > 0 and noise[0][1] == 0
    meta = latest_metadata(instance, "arxiv_resolutions", "unarxive_2020_papers")
    assert meta["agreement_with_shipped_links"]["different"] == 0


def test_per_field_counts_use_the_catalogue_then_the_discipline(built):
    settings, *_ = built
    fields = {row[0]: row for row in query(settings, "SELECT * FROM arxiv.papers_per_field")}
    assert fields["Physics"][1:] == ("physics", 20, 0, 20)  # unarXive 2022 discipline
    assert fields[None][2] == 30  # the generated 2020 papers are in no catalogue work
    assert query(settings, "SELECT count(*) FROM mag.fields_of_study WHERE NOT is_partition") == [(0,)]


def test_the_export_is_what_the_citation_recommendation_reader_reads(built):
    settings, *_ = built
    folder = settings.export_dir("arxiv")
    issues = IssueLog()
    contexts = list(read_contexts(folder / "contexts.csv", issues))
    catalogue = read_catalogue(folder / "catalogue.jsonl", issues)
    stored = query(settings, "SELECT count(*) FROM arxiv.contexts")[0][0]
    assert len(contexts) + issues.counts.get("bad_context_line", 0) == stored > 0
    assert all(c.cited in catalogue and c.citing in catalogue for c in contexts)
    assert all("MAINCIT" in c.text for c in contexts)
    assert sum(1 for info in catalogue.values() if info.year and info.fields_of_study) > 0


def test_rerunning_a_partition_replaces_it(built):
    settings, _, defs, instance, _ = built
    before = query(settings, "SELECT count(*) FROM arxiv.contexts")
    digest = hashlib.sha256((settings.export_dir("arxiv") / "contexts.csv").read_bytes()).hexdigest()
    job = defs.resolve_job_def("arxiv_file_job")
    assert job.execute_in_process(partition_key="unarxive_2020_papers", instance=instance, raise_on_error=False).success
    assert defs.resolve_job_def("arxiv_export_job").execute_in_process(instance=instance).success
    assert query(settings, "SELECT count(*) FROM arxiv.contexts") == before
    assert hashlib.sha256((settings.export_dir("arxiv") / "contexts.csv").read_bytes()).hexdigest() == digest


def test_contexts_of_resolver_links_add_to_the_shipped_ones(built):
    settings, _, defs, instance, _ = built
    job, key = defs.resolve_job_def("arxiv_file_job"), "unarxive_2022_arxiv_src_sample"
    shipped = query(
        settings, "SELECT count(*), count(cited_mag_id) FROM arxiv.contexts WHERE citing_paper_id LIKE '2212.%'"
    )[0]
    config = {"ops": {"arxiv_contexts": {"config": {"link_source": "shipped_or_resolver"}}}}
    try:
        assert job.execute_in_process(partition_key=key, instance=instance, run_config=config).success
        linked = query(
            settings, "SELECT count(*), count(cited_mag_id) FROM arxiv.contexts WHERE citing_paper_id LIKE '2212.%'"
        )[0]
        # unarXive 2022 ships OpenAlex links only: the published rule gives contexts without a cited MAG id
        assert shipped[1] == 0 and linked[0] == linked[1] > 0
        # every shipped OpenAlex link gets its MAG id from the catalogue, and the resolver adds items
        assert linked[0] > shipped[0]
        resolved = query(
            settings,
            "SELECT count(*) FROM arxiv.references WHERE release = 'unarxive-2022' AND resolved_mag_id IS NOT NULL",
        )
        assert resolved[0][0] > 0
    finally:
        assert job.execute_in_process(partition_key=key, instance=instance).success


def test_field_partitions_gather_papers_by_catalogue_field_then_discipline(built):
    settings, _, defs, instance, _ = built
    # the build gathered the fields that have papers; an empty field partition is written when asked for
    assert (
        defs.resolve_job_def("arxiv_field_job").execute_in_process(partition_key="biology", instance=instance).success
    )
    assert latest_metadata(instance, "arxiv_field_papers", "biology")["papers_by_field"]["biology"] == 0
    assert latest_metadata(instance, "arxiv_field_papers", "physics")["papers_by_field"]["physics"] == 20
    assert defs.resolve_job_def("arxiv_warehouse_job").execute_in_process(instance=instance).success
    rows = query(settings, "SELECT field_of_study, field_source, count(*) FROM arxiv.field_papers GROUP BY ALL")
    print("\ngenerated sample, arXiv papers per field partition:", rows)
    # the generated 2020 papers are not in the catalogue; the 2024 ones are Computer Science by their discipline
    assert sorted(rows) == [("Computer Science", "discipline", 6), ("Physics", "discipline", 20)]


def test_a_new_catalogue_asks_for_every_dump_file_to_be_resolved_again(built):
    _, _, defs, instance, _ = built
    selection = dg.AssetSelection.assets("arxiv_resolutions", "arxiv_context_export")
    first = dg.evaluate_automation_conditions(defs=defs, instance=instance, asset_selection=selection)
    assert all(result.true_subset.size == 0 for result in first.results)
    assert defs.resolve_job_def("catalogue_job").execute_in_process(instance=instance).success
    later = dg.evaluate_automation_conditions(
        defs=defs, instance=instance, asset_selection=selection, cursor=first.cursor
    )
    requested = {result.key.to_user_string(): result.true_subset.size for result in later.results}
    assert requested == {"arxiv_resolutions": 3, "arxiv_context_export": 1}


def sensor_runs(sensor, instance, settings) -> list:
    """The runs a dump sensor requests on its first evaluation (no cursor: `citeworth ui` opened), files settled."""
    citeworth = PlatformResource(dumps=str(settings.dumps), data=str(settings.data), shard_settle_seconds=0)
    result = sensor(dg.build_sensor_context(instance=instance, resources={"citeworth": citeworth}))
    return [] if isinstance(result, dg.SkipReason) else list(result.run_requests or [])


def test_no_dump_sensor_requests_a_run_for_the_files_the_build_read(built):
    """Issue 33 item 4: the instance records each dump file's and the catalogue's input bytes (the data version of
    their first asset), so the unarXive and catalogue sensors request nothing for what the build read; on an
    instance that has built nothing they request every one."""
    settings, _, _, instance, _ = built
    sensors = [*arxiv_sensors, catalogue_sensor]
    with dg.instance_for_test() as empty:
        assert all(sensor_runs(sensor, empty, settings) for sensor in sensors)
    assert {sensor.name: sensor_runs(sensor, instance, settings) for sensor in sensors} == {
        sensor.name: [] for sensor in sensors
    }
