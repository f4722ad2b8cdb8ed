"""Today's layouts through the build: the 100 real OpenAlex works (2026 layout) are the catalogue, with their fields,
and real papers in unarXive's 2024 shape are read with their paragraphs and citations; an OpenAlex folder without
works parts fails the catalogue with the layouts looked for (never an empty catalogue)."""

import json
import shutil

import dagster as dg
import pytest
from arxiv_graph_helpers import query

from citeworth_assets.lib.mag.openalex_snapshot import LAYOUTS
from citeworth_assets.samples.unarxive_2024 import to_2024

pytestmark = pytest.mark.slow


def test_real_2026_works_and_real_papers_in_the_2024_shape_build(shared_data, tmp_path, build_graph):
    """As a new user would: a dump root of today's layouts only (the real OpenAlex works, real unarXive papers put
    into the 2024 shape)."""
    dumps = tmp_path / "dumps"
    shutil.copytree(shared_data / "openalex-2026", dumps / "openalex")
    with open(shared_data / "unarxive-2022" / "arXiv_src_2212_086.first20.jsonl", encoding="utf-8") as lines:
        records = [to_2024(json.loads(line), cited_by_count=3) for line in list(lines)[:4]]
    (dumps / "unarxive-2022").mkdir()
    (dumps / "unarxive-2022" / "unarxive_2024.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    settings, result, *_ = build_graph(dumps, tmp_path / "data")
    assert result.failed == []
    works = "SELECT source, count(*), count(*) FILTER (WHERE len(fields) > 0) FROM mag.works GROUP BY 1"
    assert query(settings, works) == [("openalex", 100, 100)]
    assert query(settings, "SELECT count(*) FROM mag.fields_of_study WHERE NOT is_partition") == [(0,)]
    papers = query(
        settings, "SELECT release, count(*), sum(n_markers), min(cited_by_count) FROM arxiv.papers GROUP BY 1"
    )
    markers = sum(len(p["cite_spans"]) for r in records for p in r["sections"].values())
    assert papers == [("unarxive-2024", 4, markers, 3)] and markers > 0
    paragraphs = query(settings, "SELECT count(*), count(DISTINCT paper_id) FROM arxiv.paragraphs")[0]
    assert paragraphs[0] > paragraphs[1] == 4
    assert query(settings, "SELECT count(*) FROM arxiv.read_issues WHERE kind = 'missing_body_text'") == [(0,)]


def test_an_openalex_folder_without_works_fails_naming_the_layouts(tmp_path, build_graph):
    (tmp_path / "dumps" / "openalex" / "data" / "jsonl" / "authors").mkdir(parents=True)
    settings, result, instance, _ = build_graph(tmp_path / "dumps", tmp_path / "data")
    assert result.failed
    failures = instance.get_records_for_run(
        run_id=instance.get_run_records(dg.RunsFilter(statuses=[dg.DagsterRunStatus.FAILURE]))[0].dagster_run.run_id,
        of_type=dg.DagsterEventType.STEP_FAILURE,
    ).records
    message = failures[0].event_log_entry.dagster_event.step_failure_data.error.cause.message
    assert "no works part found" in message and all(layout in message for layout in LAYOUTS)
