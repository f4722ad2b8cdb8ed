import os
import subprocess
import sys
import warnings
from pathlib import Path

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


def _names(defs: dg.Definitions) -> dict[str, set[str]]:
    graph = defs.resolve_asset_graph()
    return {
        "assets": {key.to_user_string() for key in graph.get_all_asset_keys()},
        "checks": {key.to_user_string() for key in graph.asset_check_keys},
        "jobs": {job.name for job in defs.jobs or ()},
        "sensors": {sensor.name for sensor in defs.sensors or ()},
        "schedules": {schedule.name for schedule in defs.schedules or ()},
    }


def test_the_defs_folder_holds_what_dg_autoloading_finds():
    """The code location finds each domain's definitions in the defs folder itself (one declaration, where the
    domain lives); dg's own autoloading of that folder must find the same ones."""
    from citeworth_assets.definitions import defs, defs_modules

    assert "citeworth_assets.defs.s2orc.definitions" in {module.__name__ for module in defs_modules()}
    ours = _names(defs)
    found = dg.load_from_defs_folder(path_within_project=Path(__file__).resolve().parents[2])
    dgs = _names(dg.Definitions.merge(found, dg.Definitions(resources=defs.resources)))
    assert ours == dgs
    assert {"s2orc_dump_sensor", "citeworth_automation_sensor"} <= ours["sensors"]


def test_a_build_runs_the_dump_sources_in_their_declared_order():
    from citeworth_assets.definitions import SOURCES

    assert [source.name for source in SOURCES] == [
        "s2ag metadata",
        "shards",
        "LaTeX source dumps",
        "dump files",
        "catalogue",
    ]


@pytest.mark.slow  # a few seconds: make test runs it, make test-fast leaves it out
def test_dg_checks_the_project(tmp_path):
    """``[tool.dg]`` makes the repository a dg project: ``dg check defs`` loads the same code location."""
    dg_cli = Path(sys.executable).with_name("dg")
    if not dg_cli.exists():
        pytest.skip("dagster-dg-cli is not installed (the dev extra installs it)")
    result = subprocess.run(
        [str(dg_cli), "check", "defs", "--use-active-venv"],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
        env={**os.environ, "DAGSTER_HOME": str(tmp_path)},
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
