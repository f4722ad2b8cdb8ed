"""The closing summary of ``citeworth build``: rows per warehouse table, every asset check of the build counted,
read issues, the models with the degenerate ones flagged and why, and where the outputs are.

A build ran several jobs (one per shard, per field, the warehouse, the models), so the checks are gathered from
every run the build started, not from the last job's result; a check that did not run is counted as such.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import click

from citeworth_assets.lib.model_report import DEGENERATE_RULE, model_rows, positive_share_of_test
from citeworth_assets.lib.settings import PlatformSettings

VERBOSE_HELP = "Show the libraries' INFO logs (transformers, MLflow, Dagster's event log) and their progress bars."


def _louder(ctx, param, verbose: bool) -> bool:
    """Eager option callback: the libraries are quiet by default (the group quietened them); --verbose undoes it
    before the command's body imports them."""
    from citeworth_assets.cli.app import QUIET_RUN
    from citeworth_assets.lib.progress import quiet_libraries

    quiet_libraries(verbose)
    QUIET_RUN["loggers"]["console"]["config"]["log_level"] = "INFO" if verbose else "WARNING"
    return verbose


VERBOSE_OPTION = click.option(
    "--verbose", is_flag=True, is_eager=True, expose_value=False, callback=_louder, help=VERBOSE_HELP
)


# --- the parts --------------------------------------------------------------------------------------------------
def warehouse_rows(warehouse: Path) -> list[tuple[str, int | None]]:
    """(schema.name, rows) of every warehouse relation outside ``lake`` (None where counting fails)."""
    import duckdb

    from citeworth_assets.lib.duckdb_limits import bounded

    if not warehouse.exists():
        return []
    rows = []
    with bounded(warehouse, read_only=True) as connection:
        names = connection.execute(
            "SELECT table_schema, table_name FROM information_schema.tables "
            "WHERE table_schema NOT IN ('lake', 'information_schema', 'pg_catalog') ORDER BY 1, 2"
        ).fetchall()
        for schema, name in names:
            try:
                rows.append(
                    (
                        f"{schema}.{name}",
                        connection.execute(f'SELECT count(*) FROM "{schema}"."{name}"').fetchall()[0][0],
                    )
                )
            except duckdb.Error:
                rows.append((f"{schema}.{name}", None))
    return rows


READ_ISSUE_VIEWS = ("s2orc.read_issues", "arxiv.read_issues", "mag.read_issues")


def read_issue_counts(warehouse: Path) -> dict[str, int]:
    """Read issues by source and kind (``s2orc.read_issues``, ``arxiv.read_issues``, ``mag.read_issues``)."""
    import duckdb

    from citeworth_assets.lib.duckdb_limits import bounded

    if not warehouse.exists():
        return {}
    counts: dict[str, int] = {}
    with bounded(warehouse, read_only=True) as connection:
        for view in READ_ISSUE_VIEWS:
            try:
                rows = connection.execute(f"SELECT kind, count(*) FROM {view} GROUP BY kind ORDER BY 2 DESC").fetchall()
            except duckdb.Error:  # a source this build did not have
                continue
            counts.update({f"{view.split('.')[0]} {kind}": n for kind, n in rows})
    return counts


@dataclass(frozen=True)
class CheckOutcome:
    name: str  # asset/check
    evaluations: int
    failed: tuple[str, ...]  # the partitions (or "" for an unpartitioned asset) where it failed
    why_not_run: str = ""  # for a check that did not run: its asset never built, or built by an earlier build

    @property
    def status(self) -> str:
        return "not run" if not self.evaluations else ("failed" if self.failed else "passed")


def check_outcomes(instance, check_keys, since: float) -> list[CheckOutcome]:
    """Every defined check with its evaluations in the runs created since ``since`` (a POSIX time), and for a check
    that did not run, why: its asset was never built (no input for it) or is up to date from an earlier build."""
    import dagster as dg

    evaluations: dict[str, list[tuple[bool, str]]] = {
        f"{key.asset_key.to_user_string()}/{key.name}": [] for key in check_keys
    }
    assets = {f"{key.asset_key.to_user_string()}/{key.name}": key.asset_key for key in check_keys}
    created_after = datetime.fromtimestamp(since, tz=UTC)
    for record in instance.get_run_records(dg.RunsFilter(created_after=created_after)):
        for entry in instance.all_logs(record.dagster_run.run_id, of_type=dg.DagsterEventType.ASSET_CHECK_EVALUATION):
            evaluation = entry.dagster_event.event_specific_data
            name = f"{evaluation.asset_key.to_user_string()}/{evaluation.check_name}"
            partition = getattr(evaluation, "partition", None) or record.dagster_run.tags.get("dagster/partition", "")
            evaluations.setdefault(name, []).append((evaluation.passed, partition))
    outcomes = []
    for name, found in sorted(evaluations.items()):
        why = ""
        if not found and name in assets:
            built = instance.get_latest_materialization_event(assets[name]) is not None
            why = "up to date from an earlier build" if built else "its asset was not built: no input for it"
        outcomes.append(
            CheckOutcome(name, len(found), tuple(partition for passed, partition in found if not passed), why)
        )
    return outcomes


# Where each warehouse schema's rows come from, said once when all its relations are empty.
SCHEMA_INPUTS = {
    "s2orc": "S2ORC shards",
    "citeworth": "S2ORC shards (and unarXive papers converted to the S2ORC shape)",
    "citesum": "S2ORC shards",
    "arxiv": "unarXive 2020/2022 dump files or arXiv LaTeX source dumps",
    "mag": "a MAG or OpenAlex works catalogue (mag/, openalex/ under the dump root)",
    "citrec": "arXiv citation contexts whose cited works are identified",
    "sciqfs": "S2ORC shards or unarXive papers with cited abstracts",
}


# --- the text ---------------------------------------------------------------------------------------------------
def _number(value) -> str:
    return "-" if value is None else f"{value:.3f}" if isinstance(value, float) else f"{value:,}"


def format_models(rows: list[dict]) -> list[str]:
    if not rows:
        return []
    lines = ["models (test, cite-worthy class)", f"  {'model':<20} {'P':>6} {'R':>6} {'F1':>6}  note"]
    for row in rows:
        reason = row["degenerate"] or ""
        near = reason.startswith("near-degenerate")
        note = (
            f"NEAR-DEGENERATE: {reason.removeprefix('near-degenerate, ')}"
            if near
            else reason and f"DEGENERATE: {reason}"
        )
        lines.append(
            (
                f"  {row['model']:<20} {_number(row['precision']):>6} {_number(row['recall']):>6} "
                f"{_number(row['f1']):>6}  {note}"
            ).rstrip()
        )
    if any(row["degenerate"] for row in rows):
        lines.append(f"  rule: degenerate: one class predicted for every test sentence; {DEGENERATE_RULE.describe()}")
    encoders = sorted({Path(row["encoder"]).name for row in rows if row.get("encoder") not in (None, "none")})
    if encoders:
        lines.append(f"  encoder of the BERT-style models: {', '.join(encoders)}")
    return lines


def format_summary(
    settings: PlatformSettings, tables, checks: list[CheckOutcome], issues: dict[str, int], models: list[dict]
) -> str:
    lines = ["", "summary"]
    if tables:
        lines.append(f"warehouse rows per relation ({len(tables)} relations)")
        for schema in sorted({name.split(".")[0] for name, _ in tables}):
            mine = [(name.split(".", 1)[1], rows) for name, rows in tables if name.startswith(f"{schema}.")]
            if all(not rows for _, rows in mine) and len(mine) > 1:
                source = SCHEMA_INPUTS.get(schema, "inputs this build did not have")
                lines.append(f"  {schema}: all {len(mine)} relations empty (built from {source}; none in this build)")
                continue
            lines.append(f"  {schema}: " + ", ".join(f"{name} {_number(rows)} rows" for name, rows in mine))
    counted = {status: [c for c in checks if c.status == status] for status in ("passed", "failed", "not run")}
    text = f"checks: {len(counted['passed'])} passed, {len(counted['failed'])} failed"
    if counted["not run"]:
        text += f", {len(counted['not run'])} not run"
    lines.append(f"{text} (of {len(checks)}, {sum(c.evaluations for c in checks)} evaluations)")
    for outcome in counted["failed"]:
        where = ", ".join(p for p in outcome.failed if p)
        lines.append(f"  FAILED {outcome.name}{f' [{where}]' if where else ''}")
    for outcome in counted["not run"]:
        lines.append(f"  not run: {outcome.name} ({outcome.why_not_run or 'its asset was not built by this build'})")
    total = sum(issues.values())
    lines.append(
        f"read issues: {total} records or files"
        + (f" ({', '.join(f'{kind} {n}' for kind, n in issues.items())}; see <source>.read_issues)" if total else "")
    )
    lines += format_models(models)
    python = ".venv/bin/python" if Path(".venv/bin/python").exists() else "python"
    lines += [
        f"lake:      {settings.lake}",
        f"warehouse: {settings.warehouse}",
        (
            f"           {python} -c \"import duckdb; duckdb.connect('{settings.warehouse}', read_only=True)"
            ".sql('SELECT * FROM s2orc.papers_per_field').show()\""
        ),
        f"releases:  {settings.data / 'exports'} (each folder with a README.md dataset card)",
        f"MLflow:    {settings.tracking_uri} (make mlflow)",
        f"UI:        citeworth ui --dumps {settings.dumps} --data {settings.data} (make ui)",
    ]
    return "\n".join(lines)


def _process_started() -> float:
    """When this process started (POSIX time): the build's runs are the runs created since."""
    try:
        import psutil

        return psutil.Process(os.getpid()).create_time()
    except Exception:  # noqa: BLE001  (no psutil: count the last hour)
        return time.time() - 3600


def print_build_summary(settings: PlatformSettings, instance, models: bool = False, since: float | None = None) -> None:
    """Print the summary of the build that ran in this process (one call at the end of ``citeworth build``)."""
    from citeworth_assets.definitions import build_definitions
    from citeworth_assets.resources import PlatformResource

    defs = build_definitions(PlatformResource(**settings.values()))
    check_keys = defs.resolve_asset_graph().asset_check_keys
    click.echo(
        format_summary(
            settings,
            warehouse_rows(settings.warehouse),
            check_outcomes(instance, check_keys, since if since is not None else _process_started()),
            read_issue_counts(settings.warehouse),
            model_rows(settings.tracking_uri, positive_share_of_test(settings.warehouse, settings.rules))
            if models
            else [],
        )
    )
