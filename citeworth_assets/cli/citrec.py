"""Citation recommendation commands: evaluate any context CSV without the graph, train the graph's index, and
recommend cited works for a context from the latest trained index."""

from pathlib import Path

import click

from citeworth_assets.cli.app import QUIET_RUN, input_option, main
from citeworth_assets.cli.app import resolve_settings as _settings

TRAIN_HINT = "citeworth citrec-train --data DIR"
CUTOFFS = ((1, "recall"), (5, "recall"), (10, "recall"), (10, "mrr"), (10, "map"), (10, "ndcg"))


def _model_names(values: tuple[str, ...]) -> list[str]:
    """``--models bow,bm25 --models fos``; ``all`` is every registered model. Checked before any work."""
    from citeworth_assets.defs.citrec.settings import DEFAULT_MODELS
    from citeworth_models.citrec.registry import MODELS

    names = [name.strip() for value in values for name in value.split(",") if name.strip()] or list(DEFAULT_MODELS)
    if "all" in names:
        return list(MODELS)
    unknown = [name for name in names if name not in MODELS]
    if unknown:
        raise click.BadParameter(f"unknown {unknown}; registered: {', '.join(MODELS)}, or all", param_hint="--models")
    return list(dict.fromkeys(names))


MODELS_OPTION = click.option(
    "--models",
    multiple=True,
    help="Models, comma-separated or repeated (default bow, bm25, fos, bow+fosboost; `all` adds the parser models "
    "np, npmarker, claim, claim+bow).",
)


def _count_option(flag: str, default: int, text: str):
    """A whole-number option with its default shown: at least 1 (a count), or any year for ``--split-year``."""
    kind = int if flag == "--split-year" else click.IntRange(min=1)
    return click.option(flag, default=default, show_default=True, type=kind, help=text)


MIN_CONTEXTS_OPTION = _count_option("--min-contexts", 5, "A candidate needs this many training contexts ...")
MIN_CITING_OPTION = _count_option("--min-citing-papers", 5, "... from this many citing papers.")
SPLIT_YEAR_OPTION = _count_option(
    "--split-year", 2016, "Training contexts are those of citing papers up to this year, test items those after."
)


def _summary_rows(results, runs=None) -> list[dict]:
    values = {(r["model"], r["metric"], r["k"]): r["value"] for r in results.to_pylist()}
    items = {r["model"]: r["items"] for r in results.to_pylist()}
    return [
        {
            "model": model,
            **{f"{metric}@{k}": values[(model, metric, k)] for k, metric in CUTOFFS},
            "items": items[model],
            "empty": runs[model].empty if runs and model in runs else 0,  # queries answered with no candidate
        }
        for model in dict.fromkeys(r["model"] for r in results.to_pylist())
    ]


@main.command("citrec-eval")
@input_option(
    "--contexts", "A context CSV in unarXive's format (repeat for several files).", multiple=True, dir_okay=False
)
@click.option(
    "--catalogue",
    type=click.Path(exists=True, dir_okay=False),
    help="JSON lines {id, year, title, fields_of_study}: citing years, titles, field names for fos "
    "(default: years from arXiv ids).",
)
@MIN_CONTEXTS_OPTION
@MIN_CITING_OPTION
@SPLIT_YEAR_OPTION
@MODELS_OPTION
@click.option("--name", help="Data set name in the results and plot (default: the first CSV's file name).")
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    help="Write results.csv (long format), statistics.json, metrics_against_k.png, qrels.txt (cited work grade 2, "
    "adjacent citations grade 1) and runs/<model>.run (TREC run files) here.",
)
def citrec_eval(contexts, catalogue, min_contexts, min_citing_papers, split_year, models, name, out) -> None:
    """Evaluate citation recommenders on any context CSV (Saier 2019 §6.2), without the graph."""
    import json
    from dataclasses import asdict

    import pyarrow.csv as pacsv

    from citeworth_assets.lib.citrec.contexts import read_catalogue
    from citeworth_assets.lib.citrec.dataset import EvalSettings
    from citeworth_assets.lib.citrec.run import evaluate_csv

    names = _model_names(models)
    settings = EvalSettings(name or Path(contexts[0]).stem, min_contexts, min_citing_papers, split_year)
    works = read_catalogue(catalogue) if catalogue else None
    out_dir = Path(out) if out else None
    plot = out_dir / "metrics_against_k.png" if out_dir else None
    report = evaluate_csv(list(contexts), settings, works, names, plot)
    s = report.statistics
    click.echo(
        f"data set {s.dataset}: split {s.split}, {s.candidates} candidates, {s.tested} tested, "
        f"{s.test_items} test items, "
        f"{s.mean_contexts_per_candidate:.1f} ± {s.sd_contexts_per_candidate:.1f} training contexts per candidate"
    )
    if report.issues.total:
        click.echo(
            f"unusable lines: {report.issues.total} {report.issues.counts} (first: {report.issues.issues[0]})", err=True
        )
    for model, why in report.skipped.items():
        click.echo(f"skipped {model}: {why}", err=True)
    rows = _summary_rows(report.results, report.runs)
    if rows:
        header = list(rows[0])
        click.echo("  ".join(f"{h:>12}" for h in header))
        for row in rows:
            click.echo("  ".join(f"{v:>12.4f}" if isinstance(v, float) else f"{v!s:>12}" for v in row.values()))
    if out_dir:
        out_dir.mkdir(parents=True, exist_ok=True)
        pacsv.write_csv(report.results, out_dir / "results.csv")
        (out_dir / "statistics.json").write_text(
            json.dumps({**asdict(s), "read_issues": report.issues.counts, "skipped": report.skipped}, indent=2)
        )
        _write_trec(report, out_dir)
        click.echo(f"wrote {out_dir / 'results.csv'}{', ' + str(report.plot) if report.plot else ''}, qrels.txt, runs/")
    if not s.candidates or not s.test_items:
        raise click.ClickException(
            f"nothing was evaluated: {s.candidates} candidates, {s.test_items} test items from "
            f"{', '.join(contexts)} ({report.issues.total} unusable lines); an empty file, or too few contexts for "
            "--min-contexts/--min-citing-papers, or no citing paper after --split-year"
        )


def _write_trec(report, out_dir: Path) -> None:
    """The judgements and each model's rankings in TREC format, to check the figures with any IR tool."""
    from citeworth_models.citrec import trec

    trec.write_lines(trec.qrels_lines(report.dataset.test if report.dataset else []), out_dir / "qrels.txt")
    for model, run in report.runs.items():
        trec.write_lines(trec.run_lines(run), out_dir / "runs" / trec.run_file_name(model))


@main.command("citrec-train")
@click.option(
    "--data", help="Data root whose exports/arxiv/ holds contexts.csv and catalogue.jsonl (overrides CITEWORTH_DATA)."
)
@click.option("--name", default="arxiv", show_default=True, help="Data set name (lower-case letters, digits, _).")
@MIN_CONTEXTS_OPTION
@MIN_CITING_OPTION
@SPLIT_YEAR_OPTION
@MODELS_OPTION
def citrec_train(data, name, min_contexts, min_citing_papers, split_year, models) -> None:
    """Run the citrec job: data set from the arXiv context export, train and save every model, evaluate into MLflow
    and the warehouse (citrec.results). Training is manual; this is the command that does it outside the UI."""
    from citeworth_assets.instance import dagster_instance
    from citeworth_assets.lib.citrec.tables import check_dataset_name

    try:
        check_dataset_name(name)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--name") from error
    names = _model_names(models)
    settings = _settings(None, data, need_dumps=False)
    contexts = settings.export_dir("arxiv") / "contexts.csv"
    if not contexts.is_file():
        raise click.ClickException(
            f"{contexts} does not exist: export the arXiv citation contexts first (asset arxiv_context_export)"
        )
    citrec = {
        "name": name,
        "min_contexts": min_contexts,
        "min_citing_papers": min_citing_papers,
        "split_year": split_year,
        "models": names,
    }
    result = run_citrec_job(settings, dagster_instance(settings), citrec)
    if not result.success:
        raise click.ClickException(f"citrec job failed (run {result.run_id}; see it in `citeworth ui`)")
    click.echo(
        f"trained {', '.join(names)} on {name}; index under {settings.model_dir('citrec') / name}; "
        f"results in citrec.results of {settings.warehouse}"
    )


def run_citrec_job(settings, instance, citrec: dict | None = None):
    """The citrec job in this process (the data set, every configured model, the evaluation); ``citrec`` overrides
    the resource's settings (Saier 2019 Appendix C's thresholds by default). Its failures are in the result."""
    from citeworth_assets.definitions import build_definitions
    from citeworth_assets.lib.signals import sigterm_kept
    from citeworth_assets.resources import CiteworthSettings

    defs = build_definitions(CiteworthSettings(**settings.values()))
    with sigterm_kept():
        return defs.resolve_job_def("citrec_job").execute_in_process(
            instance=instance,
            run_config={**QUIET_RUN, "resources": {"citrec": {"config": citrec or {}}}},
            raise_on_error=False,
        )


@main.command("recommend")
@click.option(
    "--context", required=True, help="The citation context; MAINCIT marks where the citation goes (default: its end)."
)
@click.option("--model", default="bow", show_default=True, help="A trained model of the index.")
@click.option("--top", default=10, show_default=True, type=click.IntRange(min=1))
@click.option("--dataset", help="The data set whose index to use (default: the latest trained).")
@click.option("--data", help="Data root (overrides CITEWORTH_DATA).")
def recommend(context, model, top, dataset, data) -> None:
    """Print the cited works the latest trained index recommends for a context, with titles and scores."""
    from citeworth_assets.lib.citrec import run
    from citeworth_assets.lib.citrec.contexts import WorkInfo
    from citeworth_assets.lib.citrec.dataset import EvalDataset, EvalSettings
    from citeworth_models.citrec.store import NoTrainedIndex, latest_index

    settings = _settings(None, data, need_dumps=False)
    try:
        index = latest_index(settings.model_dir("citrec"), dataset)
    except NoTrainedIndex as error:
        raise click.ClickException(
            f"{error}: train one with `{TRAIN_HINT}` (or materialize citrec_models in `citeworth ui`)"
        ) from error
    if not index.candidates:
        raise click.ClickException(
            f"the index {index.folder} has no candidates (its data set kept none): retrain with lower thresholds"
        )
    try:
        recommender = index.load(model)
    except KeyError as error:
        raise click.BadParameter(str(error.args[0]), param_hint="--model") from error
    candidates = EvalDataset(EvalSettings(index.manifest["dataset"]), index.candidates, {}, [])
    titles = {work: WorkInfo(title=title) for work, title in zip(index.candidates, index.titles)}
    found = run.recommend(recommender, candidates, context, top, titles)
    if not found:
        click.echo(f"{model} found no evidence for any candidate in this context", err=True)
    for rank, item in enumerate(found, 1):
        click.echo(f"{rank:>3}  {item.score:8.4f}  {item.work:<14}  {item.title or '(no title)'}")
