import subprocess
import sys
import warnings

import dagster as dg
import pytest


def test_all_definitions_load_without_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        from citeworth_assets.definitions import build_definitions

        defs = build_definitions()
        dg.Definitions.validate_loadable(defs)
    keys = {key.to_user_string() for key in defs.resolve_asset_graph().get_all_asset_keys()}
    assert {
        "s2orc_papers",
        "s2orc_candidate_papers",
        "s2orc_paper_rejections",
        "s2orc_paragraphs",
        "s2orc/papers",
        "s2orc/read_issues",
        "s2orc/papers_per_field",
        "s2orc/candidate_filter_drops",
        "citeworth/sentences",
        "citesum/threshold_report",
        "citeworth/model_comparison",
    } <= keys
    assert defs.resolve_sensor_def("s2orc_dump_sensor")
    graph = defs.resolve_asset_graph()
    # A view over a lake table depends on the asset writing it; a view over views on those views.
    assert graph.get(dg.AssetKey(["s2orc", "papers"])).parent_keys == {  # each paper once: its kept occurrence
        dg.AssetKey("s2orc_papers"),
        dg.AssetKey("s2orc_duplicate_papers"),
    }
    assert graph.get(dg.AssetKey(["s2orc", "pdf_parse_issues"])).parent_keys == {dg.AssetKey("s2orc_paragraphs")}
    assert graph.get(dg.AssetKey(["s2orc", "candidate_filter_drops"])).parent_keys == {
        dg.AssetKey(["s2orc", "paper_rejections"])
    }
    assert graph.get(dg.AssetKey(["citeworth", "sentences"])).parent_keys == {dg.AssetKey(["citeworth", "dataset"])}


@pytest.mark.slow
def test_the_workspace_loads_as_dagster_dev_would(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "dagster", "definitions", "validate", "-w", "workspace.yaml"],
        capture_output=True,
        text=True,
        env={"DAGSTER_HOME": str(tmp_path), "PATH": ""},
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    # The validate command warns that it is superseded itself; nothing may warn about our definitions.
    warnings_about_us = [
        line for line in result.stderr.splitlines() if "Warning" in line and "definitions_validate_command" not in line
    ]
    assert not warnings_about_us, result.stderr
