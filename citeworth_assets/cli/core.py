"""The S2ORC-family commands: generate a sample dump, build the whole graph without the UI, the UI, cleaning single
papers, CiteSum baselines and the annotation page."""

import json
import time
from pathlib import Path

import click

from citeworth_assets.cli.app import QUIET_RUN, checked_settings, default_option, main
from citeworth_assets.cli.app import resolve_settings as _settings
from citeworth_assets.cli.reproduce import refresh_paper_tables
from citeworth_assets.cli.seq2seq import seq2seq_config as parse_seq2seq_config
from citeworth_assets.cli.seq2seq import train_citesum_models
from citeworth_assets.cli.summary import VERBOSE_OPTION, print_build_summary
from citeworth_assets.lib.settings import PlatformSettings


@main.command("generate-sample")
@click.option("--out", required=True, type=click.Path(file_okay=False), help="Folder to write the dump into.")
@click.option("--papers", default=1000, show_default=True, type=click.IntRange(min=1))
@click.option("--shards", default=2, show_default=True, type=click.IntRange(min=1))
@click.option("--seed", default=0, show_default=True, type=int)
@click.option(
    "--layout",
    type=click.Choice(["2020", "s2ag", "s2ag_v2", "both"]),
    default="both",
    show_default=True,
    help="S2ORC 20200705v1 shards; an S2AG release (papers, abstracts) with the full texts as `s2orc` (s2ag) or "
    "`s2orc_v2` (s2ag_v2); or both: the shards and a release with both full-text datasets, every paper three times "
    "(the build keeps one and reports the others as duplicates).",
)
@click.option(
    "--verbose",
    is_flag=True,
    help="Also print the full summary (every count per shard, reason and artefact kind, the files).",
)
def generate_sample(out: str, papers: int, shards: int, seed: int, layout: str, verbose: bool) -> None:
    """Write a synthetic dump in the S2ORC 20200705v1 layout and/or as an S2AG release of the same papers
    (deterministic for a seed), a synthetic SciTLDR-A folder for the CiteSum transfer, and the full summary as
    sample_summary.json in the output folder."""
    from citeworth_assets.cli.sample_summary import summary_lines, write_summary
    from citeworth_assets.samples.s2ag import generate_sample as generate
    from citeworth_assets.samples.scitldr import write_scitldr_sample

    started = time.perf_counter()
    summary = generate(Path(out), papers=papers, shards=shards, seed=seed, layout=layout)
    summary["scitldr_records"] = write_scitldr_sample(Path(out), seed)  # synthetic, for CiteSum's transfer rows
    click.echo(
        f"wrote {papers} papers in {shards} shards and a synthetic scitldr/SciTLDR-A to {Path(out).resolve()} "
        f"({time.perf_counter() - started:.1f} s)"
    )
    click.echo("\n".join(summary_lines(summary)))
    path = write_summary(Path(out), summary)
    click.echo(json.dumps(summary, indent=2) if verbose else f"  full summary: {path.resolve()} (or --verbose)")


def _model_params(text: str) -> dict:
    """``--model-params``, checked before any work: a JSON object whose keys some neural model takes, each value of
    the type of that model's default."""
    from citeworth_models.registry import MODELS

    try:
        params = json.loads(text)
    except ValueError as error:
        raise click.BadParameter(f"not JSON: {error}", param_hint="--model-params") from error
    if not isinstance(params, dict):
        raise click.BadParameter(
            f"expected a JSON object such as '{{\"epochs\": 1}}', got a {type(params).__name__}",
            param_hint="--model-params",
        )
    defaults: dict[str, list] = {}
    for name, spec in MODELS.items():
        if name != "logistic_regression":
            for key, value in spec.defaults.items():
                defaults.setdefault(key, []).append(value)
    unknown = sorted(set(params) - set(defaults))
    if unknown:
        raise click.BadParameter(
            f"unknown keys {unknown}; the neural models take {sorted(defaults)}", param_hint="--model-params"
        )
    for key, value in params.items():
        if not any(_same_kind(value, default) for default in defaults[key]):
            kinds = sorted({type(default).__name__ for default in defaults[key]})
            raise click.BadParameter(
                f"{key!r} is {value!r}; expected {' or '.join(kinds)}", param_hint="--model-params"
            )
    return params


def _same_kind(value, default) -> bool:
    if default is None or isinstance(default, (list, tuple, dict)):
        return True
    if isinstance(default, bool) or isinstance(value, bool):
        return type(value) is type(default)
    if isinstance(default, float):
        return isinstance(value, (int, float))
    return type(value) is type(default)


def _rules_and_splitter(rules: str | None, splitter: str | None) -> tuple[str, str]:
    """The rule set and splitter names (flags beat CITEWORTH_RULES / CITEWORTH_SPLITTER), checked early.

    The rule set's name comes back resolved and versioned (``citeworth_improved`` gives its latest version),
    since it keys lake partitions and export folders.
    """
    from citeworth_assets.lib.citeworth.rules import rule_set

    settings = checked_settings(rules=rules, splitter=splitter)
    return rule_set(settings.rules).name, settings.splitter


RULES_OPTION = click.option(
    "--rules",
    help="CiteWorth rule set: citeworth_2021 (default) or citeworth_improved (its latest version, e.g. "
    "citeworth_improved_v2), optionally +<improvement> (overrides CITEWORTH_RULES).",
)
SPLITTER_OPTION = click.option(
    "--splitter", help="Sentence splitter: scispacy_pysbd (default) or en_core_sci_sm (overrides CITEWORTH_SPLITTER)."
)


@main.command()
@click.option("--dumps", help="Dump root (overrides CITEWORTH_DUMPS).")
@click.option("--data", help="Data root for lake, warehouse and MLflow store (overrides CITEWORTH_DATA).")
@RULES_OPTION
@SPLITTER_OPTION
@click.option(
    "--models/--no-models",
    default=False,
    show_default=True,
    help="Also train, track and compare the cite-worthiness models (CiteWorth Table 4), then train and evaluate "
    "citation recommendation (Saier 2019 §6.1-6.2) on the build's arXiv citation contexts.",
)
@click.option(
    "--model-params",
    default="{}",
    show_default=True,
    help="Hyperparameter overrides for the neural models, as JSON (e.g. '{\"epochs\": 1}').",
)
@default_option(
    "--model-set",
    "all",
    click.Choice(["all", "fast"]),
    "With --models: every model of CiteWorth Table 4, or the fast ones that need no encoder (logistic "
    "regression, the transformer from scratch; seconds on a CPU). Citation recommendation (Saier 2019 ch. 5) is "
    "trained and evaluated either way when the build has arXiv citation contexts.",
)
@click.option(
    "--seq2seq-config",
    default="{}",
    show_default=True,
    help="With --models: settings of CiteSum's abstractive models (Tables 5-7), as JSON: checkpoint (a local BART "
    "folder; default CITEWORTH_SEQ2SEQ, else a tiny random BART whose scores mean nothing), params (e.g. "
    '{"epochs": 1}), train_examples / test_examples (caps, 0: whole split), seeds (few-shot runs, default 3).',
)
@click.option(
    "--skip-incomplete",
    is_flag=True,
    help="Build the complete shards and exit 0 even if some shards lack a file or have an empty one (they are "
    "listed either way).",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    help="Shard runs at a time, through the instance's run queue (default: the number of cores; a running "
    "`citeworth ui` daemon applies the instance's own limit).",
)
@click.option(
    "--in-process",
    is_flag=True,
    help="Run every run of the build one after another in this process instead of through the run queue (no "
    "process per run: quicker on a small dump, and a debugger sees every asset; --workers does not apply).",
)
@click.option(
    "--force",
    is_flag=True,
    help="Rebuild every shard, also those the instance records as built from the same files, rule set and splitter.",
)
@VERBOSE_OPTION
def build(
    dumps: str | None,
    data: str | None,
    rules: str | None,
    splitter: str | None,
    models: bool,
    model_params: str,
    model_set: str,
    seq2seq_config: str,
    skip_incomplete: bool,
    workers: int | None,
    in_process: bool,
    force: bool,
) -> None:
    """Discover the sources under the dump root (S2ORC shards, unarXive files, the MAG/OpenAlex catalogue), build
    those not built yet, then everything the graph's automation conditions request after them.

    A shard is skipped when the Dagster instance (the one `citeworth ui` shows) records it as built from the same
    files, rule set and splitter, by this command, the dump sensor or a backfill (`--force` rebuilds it). Every run
    goes through the instance's run queue, `--workers` at a time, in the order the asset graph gives. One build
    holds a data root at a time: a second one is refused."""
    from citeworth_assets.build.guard import DataRootBusy, data_root_lock

    rules, splitter = _rules_and_splitter(rules, splitter)
    settings = _settings(dumps, data, need_dumps=True, rules=rules, splitter=splitter)
    try:  # held before anything under the data root is touched (staging cleaned, runs recovered)
        with data_root_lock(settings.data):
            _model_params(model_params)  # (after the lock: checking it imports the models, seconds)
            seq2seq = parse_seq2seq_config(seq2seq_config)
            _build_held(
                settings,
                models and model_set,
                model_params,
                skip_incomplete,
                workers=workers,
                force=force,
                here=in_process,
                seq2seq=seq2seq,
            )
    except DataRootBusy as error:
        raise click.ClickException(str(error)) from None


def _build_held(
    settings: PlatformSettings,
    models: str | bool,
    model_params: str,
    skip_incomplete: bool,
    *,
    workers: int | None,
    force: bool,
    here: bool,
    seq2seq: dict | None = None,
) -> None:
    """`citeworth build` once the data root is held; ``models``: False, or the model set to train ("all", "fast")."""
    from citeworth_assets.build.root import build_data_root
    from citeworth_assets.cli.arxiv import has_arxiv_sources
    from citeworth_assets.lib.lake import clean_stale_staging
    from citeworth_assets.lib.s2ag.sources import full_text_sources as discover_shards  # 2020 shards and S2AG files
    from citeworth_assets.lib.s2orc.shards import incomplete_shards
    from citeworth_models.registry import FAST_MODELS, MODELS, NEURAL_MODELS

    for cleaned in clean_stale_staging(settings.lake):
        click.echo(f"staging: {cleaned} (left by an interrupted run)", err=True)
    incomplete = incomplete_shards(settings.dumps)
    for half in incomplete:
        click.echo(f"incomplete shard {half} ({'skipped' if skip_incomplete else 'not built'})", err=True)
    if not discover_shards(settings.dumps) and not has_arxiv_sources(settings.dumps):
        raise click.ClickException(
            f"no S2ORC shards and no arXiv/MAG sources under {settings.dumps} (expected <release>/full/metadata/"
            "metadata_<i>.jsonl.gz with a matching pdf_parses file, s2ag/<release>/s2orc/<file>.gz, or "
            "unarxive-2020/, unarxive-2022/, mag/, openalex/; check --dumps / CITEWORTH_DUMPS)"
        )
    chosen = FAST_MODELS if models == "fast" else MODELS
    train = {"all": "models_job", "fast": "models_fast_job"}.get(models)
    if train and not discover_shards(settings.dumps):  # the models' CiteWorth release is built from S2ORC shards
        click.echo("models: not trained (no S2ORC shards under the dump root, so no CiteWorth release to train on)")
        train = None
    neural = {f"model_{name}": {"config": {"params_json": model_params}} for name in NEURAL_MODELS if name in chosen}
    trained_from = []  # when the warehouse was published and training began

    def published(result, instance) -> None:
        _report_data(settings, instance, result)
        trained_from.append(time.perf_counter())

    result, instance = build_data_root(
        settings,
        workers=workers,
        force=force,
        train_job=train,
        train_config={"ops": neural},
        published=published,
        echo=click.echo,
        log_config=QUIET_RUN,
        in_process=here,
    )
    if train:
        scores = {name: _latest(instance, f"model_{name}", "test_f1") for name in chosen}
        trained = not any(key.to_user_string().startswith("model_") for key in result.failed_assets)
        took = time.perf_counter() - trained_from[0]
        click.echo(f"models: {'trained' if trained else 'FAILED'} in {took:.0f} s, test F1 {scores}")
    if models and not _train_citrec(settings, instance):
        result.failed.append("citation recommendation (citrec_job)")
    if models and not train_citesum_models(settings, instance, seq2seq or {}):
        result.failed.append("CiteSum abstractive models (citesum_models_job)")
    if models and not refresh_paper_tables(settings, instance):  # training is followed by no automation condition
        result.failed.append("the papers' tables (paper_tables_job)")
    print_build_summary(settings, instance, models=bool(train))
    failed = list(result.failed)
    if incomplete and not skip_incomplete:
        half_keys = sorted(half.key for half in incomplete)
        failed.append(
            f"{len(incomplete)} incomplete shards ({', '.join(half_keys)}; --skip-incomplete builds without them)"
        )
    if failed:
        raise click.ClickException(f"failed: {', '.join(failed)}")


def _train_citrec(settings: PlatformSettings, instance) -> bool:
    """With --models, the citation recommendation job after the build (training and evaluation, like the models),
    when the build exported arXiv citation contexts; False when it failed."""
    from citeworth_assets.cli.citrec import run_citrec_job

    if not (settings.export_dir("arxiv") / "contexts.csv").is_file():
        click.echo("citrec: not trained (no arXiv citation contexts in this build)")
        return True
    started = time.perf_counter()
    run = run_citrec_job(settings, instance)
    click.echo(
        f"citrec: {'trained and evaluated' if run.success else 'FAILED'} in {time.perf_counter() - started:.0f} s"
    )
    if run.success:
        click.echo(_citrec_figures(settings.warehouse))
    return run.success


def _citrec_figures(warehouse) -> str:
    """One line of the evaluation: candidates, test items and recall@1 / NDCG@10 per model (Saier 2019 §6.2;
    recall@1, as a small data set may have fewer than 10 candidates)."""
    from citeworth_assets.lib.warehouse import reading

    with reading(warehouse) as connection:
        candidates = connection.execute("SELECT count(*) FROM citrec.candidates").fetchone()[0]
        rows = connection.execute(
            "SELECT model, max(items), max(value) FILTER (metric = 'recall' AND k = 1), "
            "max(value) FILTER (metric = 'ndcg' AND k = 10) FROM citrec.results GROUP BY model ORDER BY model"
        ).fetchall()
    if not candidates:
        from citeworth_assets.defs.citrec.settings import CitrecResource

        rule = CitrecResource()
        return (
            f"citrec: no cited work has {rule.min_contexts} training contexts from {rule.min_citing_papers} citing "
            f"papers up to {rule.split_year} (Saier 2019 Appendix C's candidate rule): nothing to evaluate"
        )
    items = max((row[1] for row in rows), default=0)
    scores = ", ".join(f"{model} {recall:.3f}/{ndcg:.3f}" for model, _, recall, ndcg in rows)
    return f"citrec: {candidates} candidate works, {items} test contexts; recall@1/NDCG@10: {scores}"


def _latest(instance, key: str, field: str):
    """A metadata value of the latest materialization of ``key`` (unpartitioned)."""
    import dagster as dg

    records = instance.fetch_materializations(dg.AssetKey(key), limit=1).records
    if not records:
        return None
    value = records[0].asset_materialization.metadata.get(field)
    return None if value is None else value.value


def _report_data(settings: PlatformSettings, instance, result) -> None:
    """The lines once the data has settled: what the build made of the datasets, and the warehouse (published now,
    before any model trains)."""
    import dagster as dg

    built = result.materialized
    if dg.AssetKey("citeworth_dataset") in built:
        click.echo(
            f"dataset: {_latest(instance, 'citeworth_dataset', 'paragraphs')} paragraphs; "
            f"release: {_latest(instance, 'citeworth_release', 'folder')}"
        )
    if dg.AssetKey("arxiv_context_export") in built:
        contexts, csv = (_latest(instance, "arxiv_context_export", name) for name in ("contexts", "contexts_csv"))
        click.echo(f"arXiv contexts export: {contexts} contexts -> {csv}")
    if dg.AssetKey("sciqfs_examples") in built:
        click.echo(f"sciqfs: {_latest(instance, 'sciqfs_examples', 'examples')} examples")
    state = "refreshed" if result.warehouse_built else "up to date (nothing new to build)"
    state = state if result.warehouse_refreshed else "FAILED (previous warehouse kept)"
    click.echo(f"warehouse: {state} ({settings.warehouse})")


@main.command("clean-paper")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@RULES_OPTION
@SPLITTER_OPTION
@click.option("--explain", is_flag=True, help="Print each decision and its reason to standard error.")
def clean_paper(paths: tuple[str, ...], rules: str | None, splitter: str | None, explain: bool) -> None:
    """Clean papers (pdf_parses records or CORD-19 documents, as JSON files or folders of them) without the
    metadata filter; print their accepted paragraphs as JSON lines in the release schema.

    A paper whose cleaning raises an unexpected error is reported on standard error (internal_error, with
    its file) and skipped; the other papers are cleaned and printed, and the exit status is then 1."""
    import json

    from citeworth_assets.lib.citeworth.cleaning import INTERNAL_ERROR, clean_papers
    from citeworth_assets.lib.citeworth.dataset import release_record
    from citeworth_assets.lib.citeworth.paper_files import read_paper_files
    from citeworth_assets.lib.citeworth.partition import paragraph_row
    from citeworth_assets.lib.citeworth.rules import rule_set
    from citeworth_assets.lib.sentences import splitter as sentence_splitter

    rules, splitter = _rules_and_splitter(rules, splitter)
    problems: list[str] = []
    read = 0

    def counted(papers):
        nonlocal read
        for paper in papers:
            read += 1
            yield paper

    papers = counted(read_paper_files([Path(path) for path in paths], problems))
    rules = rule_set(rules)
    for result in clean_papers(papers, rules, sentence_splitter(splitter)):
        for accepted in result.accepted:
            click.echo(json.dumps(release_record(paragraph_row(rules, result, accepted)), ensure_ascii=False))
        if result.paper_reason == INTERNAL_ERROR:
            (error,) = result.drops
            problems.append(
                f"{result.paper.provenance.get('source_file')}: {INTERNAL_ERROR} in paper {error.paper_id}: "
                f"{error.detail}"
            )
        elif explain:
            for drop in result.drops:
                click.echo(f"drop {drop}", err=True)
            for accepted in result.accepted:
                labels = ", ".join(sample.label for sample in accepted.verdict.samples)
                click.echo(
                    f"keep {result.paper.paper_id} paragraph {accepted.paragraph['paragraph_index']}: {labels}",
                    err=True,
                )
    for problem in problems:
        click.echo(f"problem {problem}", err=True)
    if not read:
        raise click.ClickException(
            f"no paper read from {', '.join(paths)} (expected .json pdf_parses records or CORD-19 documents)"
        )
    if problems:
        raise SystemExit(1)


@main.command("citesum-baselines")
@click.option(
    "--input",
    "path",
    required=True,
    type=click.Path(exists=True, dir_okay=False),
    help="JSON lines with source (sentences) and target (summaries).",
)
def citesum_baselines(path: str) -> None:
    """Score EXT-LEAD, EXT-HEURISTIC and EXT-ORACLE (CiteSum §3.1) on a TLDR dataset: mean ROUGE-1/2/L F1 x100,
    each the maximum over the record's reference summaries."""
    from citeworth_assets.lib.citesum.baselines import (
        TldrFormatError,
        format_table,
        read_tldr_jsonl,
        score_baselines,
    )

    try:
        scores = score_baselines(read_tldr_jsonl(path))
    except TldrFormatError as error:
        raise click.ClickException(str(error)) from error
    click.echo(format_table(scores))


@main.command()
@click.option("--data", help="Data root (overrides CITEWORTH_DATA).")
@RULES_OPTION
@click.option("--annotator", help="Your name; the page asks for it when not given.")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to bind; keep the default unless you mean to share the page.",
)
@click.option("--port", default=8765, show_default=True, type=click.IntRange(1, 65535))
def annotate(data: str | None, rules: str | None, annotator: str | None, host: str, port: int) -> None:
    """Serve the manual-evaluation page (CiteWorth §3.3) for the sample of a rule set; judgements are saved at once
    under <data>/manual_eval/<rule set>/judgements/."""
    from citeworth_assets.lib.citeworth.dataset import RULES_DIMENSION
    from citeworth_assets.lib.lake import partition_dir
    from citeworth_assets.lib.manual_eval.server import serve

    settings = _settings(None, data, need_dumps=False)
    rules, _ = _rules_and_splitter(rules, None)
    sample = partition_dir(settings.lake, "citeworth_manual_eval_sample", rules, RULES_DIMENSION) / "part-0.parquet"
    if not sample.exists():
        raise click.ClickException(
            f"no manual-evaluation sample for rule set {rules} under {settings.lake}; run `citeworth build` "
            "or materialize citeworth_manual_eval_sample first"
        )
    if annotator:
        from citeworth_assets.lib.manual_eval.store import check_annotator

        try:
            check_annotator(annotator)
        except ValueError as error:
            raise click.BadParameter(str(error), param_hint="--annotator") from None
        click.echo(f"open http://{host}:{port}/?annotator={annotator}")
    try:
        serve(sample, settings.judgements_dir(rules), host=host, port=port)
    except OSError as error:  # a busy port, an address not on this machine
        raise click.ClickException(
            f"cannot serve on {host}:{port}: {error.strerror or error} (choose another --port / --host)"
        ) from None
