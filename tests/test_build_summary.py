"""The closing summary of a build: all checks counted (over every run of the build), degenerate models named."""

import time
from pathlib import Path

import dagster as dg
import duckdb

from citeworth_assets.cli.summary import (
    CheckOutcome,
    check_outcomes,
    format_models,
    format_summary,
    read_issue_counts,
    warehouse_rows,
)
from citeworth_assets.lib.model_report import degenerate_reason, positive_share_of_test
from citeworth_assets.lib.settings import PlatformSettings


def test_checks_are_counted_over_every_run_and_partition():
    parts = dg.StaticPartitionsDefinition(["a", "b"])

    @dg.asset(partitions_def=parts, check_specs=[dg.AssetCheckSpec("rows_add_up", asset="shard")])
    def shard(context):
        yield dg.Output(1)
        yield dg.AssetCheckResult(check_name="rows_add_up", passed=context.partition_key == "a")

    @dg.asset(check_specs=[dg.AssetCheckSpec("balanced", asset="whole"), dg.AssetCheckSpec("never_run", asset="whole")])
    def whole():
        yield dg.Output(1)
        yield dg.AssetCheckResult(check_name="balanced", passed=True)
        yield dg.AssetCheckResult(check_name="never_run", passed=True)

    instance = dg.DagsterInstance.ephemeral()
    since = time.time() - 1
    for key in ("a", "b"):
        dg.materialize([shard], partition_key=key, instance=instance, raise_on_error=False)
    dg.materialize([whole], instance=instance, selection=[whole], raise_on_error=False)
    keys = [
        dg.AssetCheckKey(dg.AssetKey("shard"), "rows_add_up"),
        dg.AssetCheckKey(dg.AssetKey("whole"), "balanced"),
        dg.AssetCheckKey(dg.AssetKey("whole"), "never_run"),
        dg.AssetCheckKey(dg.AssetKey("whole"), "other"),
    ]
    outcomes = {o.name: o for o in check_outcomes(instance, keys, since)}
    assert outcomes["shard/rows_add_up"] == CheckOutcome("shard/rows_add_up", 2, ("b",))
    assert outcomes["whole/balanced"].status == "passed"
    assert outcomes["whole/other"].status == "not run"
    assert check_outcomes(instance, keys, time.time() + 60)[0].evaluations == 0  # runs before `since` do not count


def test_summary_counts_every_check_and_names_the_failed(tmp_path):
    settings = PlatformSettings.resolve(dumps=str(tmp_path), data=str(tmp_path / "data"))
    checks = [
        CheckOutcome("a/x", 4, ()),
        CheckOutcome("b/y", 1, ("s_1",)),
        CheckOutcome("c/z", 0, ()),
        CheckOutcome("d/w", 1, ()),
        CheckOutcome("e/v", 1, ()),
        CheckOutcome("f/u", 1, ()),
    ]
    text = format_summary(settings, [("s2orc.papers", 10), ("citeworth.dataset", 3)], checks, {"invalid_json": 2}, [])
    assert "checks: 4 passed, 1 failed, 1 not run (of 6, 8 evaluations)" in text
    assert "FAILED b/y [s_1]" in text
    assert "read issues: 2 records or files (invalid_json 2" in text
    assert "s2orc: papers 10 rows" in text and "citeworth: dataset 3 rows" in text
    assert "not run: c/z (its asset was not built by this build)" in text
    assert "read_only=True" in text and "duckdb -readonly" not in text


def test_degenerate_models_are_flagged_with_a_reason():
    tiny = {
        "model": "bert",
        "precision": 0.43,
        "recall": 1.0,
        "f1": 0.6,
        "predicted_positive_share": 1.0,
        "encoder": "/d/models/tiny_bert",
        "encoder_is_tiny": True,
    }
    assert "every sentence cite-worthy" in degenerate_reason(tiny) and "tiny random encoder" in degenerate_reason(tiny)
    fine = {**tiny, "predicted_positive_share": 0.45, "encoder_is_tiny": False}
    assert degenerate_reason(fine) is None
    # an older run without the share: recall 1 at exactly the positive share of test is "everything positive"
    old = {"model": "bert", "precision": 0.43, "recall": 1.0, "f1": 0.6}
    assert degenerate_reason(old, positive_share=0.43)
    assert degenerate_reason({**old, "precision": 0.96}, positive_share=0.43) is None
    assert "not cite-worthy" in degenerate_reason({"model": "citebert", "precision": 0.0, "recall": 0.0, "f1": 0.0})
    lines = format_models([{**tiny, "degenerate": degenerate_reason(tiny)}, {**fine, "degenerate": None}])
    assert sum("DEGENERATE" in line for line in lines) == 1 and "tiny_bert" in lines[-1]


def test_warehouse_rows_issues_and_positive_share(tmp_path: Path):
    path = tmp_path / "warehouse.duckdb"
    with duckdb.connect(str(path)) as db:
        db.execute("CREATE SCHEMA s2orc; CREATE SCHEMA citeworth; CREATE SCHEMA lake")
        db.execute(
            "CREATE TABLE s2orc.read_issues AS "
            "SELECT * FROM (VALUES ('invalid_json'), ('invalid_json'), ('bad_type')) t(kind)"
        )
        db.execute(
            "CREATE TABLE citeworth.sentences AS SELECT * FROM (VALUES ('test', true, 'r'), ('test', false, 'r'), "
            "('test', false, 'r'), ('train', true, 'r'), ('test', true, 'other')) t(split, cite_worthy, rule_set)"
        )
        db.execute("CREATE VIEW lake.hidden AS SELECT 1")
    assert warehouse_rows(path) == [("citeworth.sentences", 5), ("s2orc.read_issues", 3)]
    assert read_issue_counts(path) == {"s2orc invalid_json": 2, "s2orc bad_type": 1}
    assert abs(positive_share_of_test(path, "r") - 1 / 3) < 1e-9
    assert (
        warehouse_rows(tmp_path / "missing.duckdb") == []
        and positive_share_of_test(tmp_path / "missing.duckdb", "r") is None
    )


def test_empty_sources_are_said_once_and_checks_not_run_say_why(tmp_path: Path):
    settings = PlatformSettings(dumps=tmp_path / "dumps", data=tmp_path / "data")
    tables = [("s2orc.papers", 10), ("arxiv.papers", 0), ("arxiv.contexts", 0), ("mag.works", 0), ("mag.edges", 0)]
    checks = [CheckOutcome("arxiv/papers/ids", 0, (), "its asset was not built: no input for it")]
    text = format_summary(settings, tables, checks, {}, [])
    assert "arxiv: all 2 relations empty (built from unarXive 2020/2022" in text
    assert "mag: all 2 relations empty (built from a MAG or OpenAlex works catalogue" in text
    assert "contexts 0" not in text  # one sentence per empty source, not a wall of zeros
    assert "not run: arxiv/papers/ids (its asset was not built: no input for it)" in text


def test_near_degenerate_models_are_flagged_by_the_stated_rule():
    # the two models the demo let through: recall 0.94 at the base rate, and recall 0.02
    longformer = {"model": "longformer_ctx", "precision": 0.44, "recall": 0.94, "f1": 0.6, "encoder": "x"}
    longformer["predicted_positive_share"] = 0.91
    transformer = {"model": "transformer", "precision": 0.5, "recall": 0.02, "f1": 0.04}
    transformer["predicted_positive_share"] = 0.02
    reasons = [degenerate_reason(row, positive_share=0.43) for row in (longformer, transformer)]
    assert reasons[0].startswith("near-degenerate, recall 0.94 at the precision of predicting everything")
    assert reasons[1].startswith("near-degenerate, predicts 2% of test sentences cite-worthy")
    useful = {**longformer, "precision": 0.7, "recall": 0.6, "predicted_positive_share": 0.4}
    assert degenerate_reason(useful, positive_share=0.43) is None
    lines = format_models([{**longformer, "degenerate": reasons[0]}, {**useful, "degenerate": None}])
    assert any("NEAR-DEGENERATE: recall 0.94" in line for line in lines)
    assert any(line.strip().startswith("rule: degenerate") and "near-degenerate" in line for line in lines)
