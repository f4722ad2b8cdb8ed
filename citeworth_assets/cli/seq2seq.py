"""`citeworth build --models`: CiteSum's abstractive models (Tables 5-7) after the other models, in this process,
the way citation recommendation is trained (never by a sensor)."""

import json
import time

import click

from citeworth_assets.cli.app import QUIET_RUN

CONFIG_FIELDS = ("checkpoint", "params", "train_examples", "test_examples", "seeds", "log_models")


def seq2seq_config(text: str) -> dict:
    """``--seq2seq-config``, checked before any work: a JSON object of the asset's settings; ``params`` (an object)
    becomes its ``params_json``."""
    try:
        values = json.loads(text)
    except ValueError as error:
        raise click.BadParameter(f"not JSON: {error}", param_hint="--seq2seq-config") from error
    if not isinstance(values, dict) or set(values) - set(CONFIG_FIELDS):
        raise click.BadParameter(
            f"expected a JSON object with keys among {', '.join(CONFIG_FIELDS)}", param_hint="--seq2seq-config"
        )
    if "params" in values:
        values["params_json"] = json.dumps(values.pop("params"))
    return values


def train_citesum_models(settings, instance, config: dict) -> bool:
    """Run ``citesum_models_job`` when the build has a CiteSum dataset; False when it failed."""
    from citeworth_assets.definitions import build_definitions
    from citeworth_assets.lib import lake
    from citeworth_assets.lib.signals import sigterm_kept
    from citeworth_assets.resources import PlatformResource

    if not lake.has_data(settings.lake, "citesum_dataset"):
        click.echo("citesum models: not trained (no CiteSum dataset in this build)")
        return True
    started = time.perf_counter()
    defs = build_definitions(PlatformResource(**settings.values()))
    with sigterm_kept():
        run = defs.resolve_job_def("citesum_models_job").execute_in_process(
            instance=instance,
            run_config={**QUIET_RUN, "ops": {"citesum_abstractive_scores": {"config": config}}},
            raise_on_error=False,
        )
    took = time.perf_counter() - started
    if not run.success:
        click.echo(f"citesum models: FAILED in {took:.0f} s")
        return False
    click.echo(f"citesum models: trained and evaluated in {took:.0f} s; {summary(settings.lake)}")
    return True


def summary(lake_root) -> str:
    """One line: the checkpoint, CITES's CiteSum test ROUGE and how many rows have scores or a reason."""
    from citeworth_assets.lib import lake
    from citeworth_assets.lib.citesum.abstractive import SCORES_TABLE

    rows = lake.read_partition(lake_root, SCORES_TABLE).to_pylist()
    first = next((row for row in rows if row["reason"] is None and row["eval_set"] == "citesum"), None)
    checkpoint = rows[0]["checkpoint"] if rows else "none"
    caveat = "" if rows and rows[0]["meaningful"] else " (a tiny random model: its scores mean nothing)"
    scored = sum(row["reason"] is None for row in rows)
    figures = f"abstract->TLDR R-1/2/L {first['rouge1']}/{first['rouge2']}/{first['rougeL']}, " if first else ""
    reasons = sorted({row["reason"].split(":")[0] for row in rows if row["reason"]})
    return f"{checkpoint}{caveat}: {figures}{scored} of {len(rows)} rows scored" + (
        f"; not scored: {'; '.join(reasons)}" if reasons else ""
    )
