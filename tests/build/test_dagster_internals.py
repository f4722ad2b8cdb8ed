"""The Dagster internals of the build (citeworth_assets/build/dagster_internals.py) as they were in Dagster 1.13: a
Dagster upgrade that changes one fails here, naming it, before a build fails somewhere in a run."""

import inspect

import dagster as dg
import pytest

from citeworth_assets.build import dagster_internals as internals

RECHECK = "recheck citeworth_assets/build/dagster_internals.py against this Dagster, then update CHECKED_AGAINST"


def _parameters(function) -> set[str]:
    fields = getattr(function, "_fields", None)  # a record's fields (its signature is *args, **kwargs)
    return set(fields) if fields else set(inspect.signature(function).parameters)


def test_the_installed_dagster_is_the_minor_version_the_internals_were_checked_against():
    minor = ".".join(dg.__version__.split(".")[:2])
    assert minor == internals.CHECKED_AGAINST == "1.13", f"Dagster {dg.__version__}: {RECHECK}"


NAMES = internals.internals()


@pytest.mark.parametrize(
    ("function", "parameters"),
    [
        (NAMES["JobSubsetSelector"], {"location_name", "repository_name", "job_name", "op_selection"}),
        (NAMES["JobSubsetSelector"], {"asset_selection"}),
        (NAMES["WorkspaceProcessContext"], {"instance", "code_server_log_level"}),
        (NAMES["WorkspaceFileTarget"], {"paths"}),
        (NAMES["InstanceRef"].from_dir, {"base_dir", "overrides"}),
        (NAMES["get_daemon_statuses"], {"instance", "daemon_types", "ignore_errors"}),
        (NAMES["QueuedRunCoordinatorDaemon"], {"interval_seconds"}),
        (NAMES["QueuedRunCoordinatorDaemon"].run_iteration, {"workspace_process_context"}),
        (
            dg.DagsterInstance.create_run,
            {
                "job_name",
                "run_id",
                "run_config",
                "resolved_op_selection",
                "step_keys_to_execute",
                "op_selection",
                "status",
                "root_run_id",
                "parent_run_id",
                "tags",
                "job_snapshot",
                "execution_plan_snapshot",
                "parent_job_snapshot",
                "remote_job_origin",
                "job_code_origin",
                "asset_selection",
                "asset_check_selection",
                "asset_graph",
            },
        ),  # fmt: skip
    ],
    ids=lambda value: getattr(value, "__qualname__", "") if callable(value) else "",
)
def test_each_internal_takes_the_parameters_the_build_passes(function, parameters):
    missing = parameters - _parameters(function)
    assert not missing, f"{function.__qualname__} lost {sorted(missing)} in Dagster {dg.__version__}: {RECHECK}"


def test_the_partition_range_tags_are_those_a_backfill_sets():
    assert internals.partition_range_tags("a", "c") == {
        "dagster/asset_partition_range_start": "a",
        "dagster/asset_partition_range_end": "c",
    }, RECHECK


def test_dynamic_partitions_are_read_once_while_the_plan_evaluates(tmp_path):
    with dg.instance_for_test(temp_dir=str(tmp_path)) as instance:
        assert "get_dynamic_partitions" not in vars(instance), RECHECK  # a method of the class, shadowable
        instance.add_dynamic_partitions("shards", ["a"])
        with internals.dynamic_partitions_read_once(instance):
            assert instance.get_dynamic_partitions("shards") == ["a"]
            instance.add_dynamic_partitions("shards", ["b"])
            assert instance.get_dynamic_partitions("shards") == ["a"]  # read once: the evaluation's snapshot
        assert instance.get_dynamic_partitions("shards") == ["a", "b"]
        assert "get_dynamic_partitions" not in vars(instance)


def test_no_other_module_of_the_package_imports_a_dagster_internal():
    from pathlib import Path

    import citeworth_assets

    root = Path(citeworth_assets.__file__).parent
    users = sorted(
        str(path.relative_to(root))
        for path in root.rglob("*.py")
        if ("dagster._" in path.read_text() or "dagster_shared" in path.read_text())
        and path.name != "dagster_internals.py"
    )
    assert users == []
