"""Train and evaluate CiteSum's abstractive rows (Tables 5, 6, 7), one MLflow run per trained model (experiment
``citesum``): parameters, per-epoch validation ROUGE, test scores, generation throughput and the model folder.

The base checkpoint is a local folder (a downloaded BART) or, without one, a tiny random BART built from the
training texts; rows of the tiny model say ``meaningful = false``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from statistics import mean

from citeworth_assets.lib.citesum import transfer
from citeworth_assets.lib.citesum.abstractive import (
    CITES,
    EXPERIMENTS,
    Experiment,
    discipline_f1,
    empty_row,
    evaluation_pairs,
    rouge_means,
    selection_score,
    training_pairs,
)

EXPERIMENT = "citesum"  # the MLflow experiment of these runs
FEW_SHOT_PARAMS = {"epochs": 10, "warmup_steps": 0}  # a few dozen steps: no warm-up (the paper gives neither)


@dataclass
class Plan:
    """What a build of the rows runs with. ``checkpoint`` None: the tiny random BART. ``train_limit`` and
    ``test_limit`` cap the examples (the demo's), None is the whole split."""

    checkpoint: str | None
    model_root: Path
    tracking: tuple[str, Path | None]
    params: dict = field(default_factory=dict)  # hyperparameter overrides
    device: dict = field(default_factory=dict)  # the training_device's device/precision/deterministic
    described: dict = field(default_factory=dict)  # its description, for the MLflow params
    train_limit: int | None = None
    test_limit: int | None = None
    seeds: int = transfer.SEEDS
    log_models: bool = True
    _tiny: Path | None = field(default=None, init=False, repr=False)  # the tiny BART, once built

    @property
    def checkpoint_name(self) -> str:
        from citeworth_models.seq2seq import TINY

        return self.checkpoint or TINY

    def base_params(self) -> dict:
        """The paper's settings for a real checkpoint, the tiny ones otherwise; then the overrides and device."""
        from citeworth_models.seq2seq import PAPER_PARAMS, TINY_PARAMS

        return {**(TINY_PARAMS if self.checkpoint is None else PAPER_PARAMS), **self.params, **self.device}

    def base_folder(self, texts: list[str]) -> Path:
        """The base BART: the configured folder, or the tiny one built (once) from ``texts``."""
        if self.checkpoint is not None:
            return Path(self.checkpoint)
        if self._tiny is None:
            from citeworth_models.seq2seq import build_tiny_bart

            self._tiny = build_tiny_bart(texts, self.model_root / "tiny_bart")
        return self._tiny

    def row(self, model: str, **values) -> dict:
        return empty_row(model=model, checkpoint=self.checkpoint_name, meaningful=self.checkpoint is not None, **values)


def train_tracked(
    plan: Plan,
    name: str,
    base: Path,
    train: list[tuple[str, str]],
    validation: list[tuple[str, list[str]]],
    test: list[tuple[str, list[str]]],
    score: Callable[[list[str]], dict],
    tags: dict,
    params: dict | None = None,
    finish: Callable[[str], str] = lambda text: text,
) -> tuple[str, dict, Path]:
    """Fine-tune ``base`` on ``train`` (epoch chosen on ``validation``), generate on ``test``, ``finish`` each
    output, ``score`` the outputs; all in one MLflow run. Returns the run id, the test metrics and the model."""
    import mlflow

    from citeworth_assets.lib.models.tracking import tracked_run
    from citeworth_models import seq2seq

    params = {**plan.base_params(), **(params or {})}
    uri, artifacts = plan.tracking
    tags = {**tags, "checkpoint": plan.checkpoint_name, "meaningful": str(plan.checkpoint is not None)}
    with tracked_run(uri, name, tags, artifacts, EXPERIMENT) as run:
        mlflow.log_params({**plan.described, **params, "train_pairs": len(train), "base": str(base)})
        model, tokenizer = seq2seq.load(base)
        seq2seq.fine_tune(
            model,
            tokenizer,
            train,
            validation,
            params,
            selection_score,
            on_epoch=lambda epoch, value: mlflow.log_metric("validation_rouge_mean", value, step=epoch),
        )
        outputs, speed = seq2seq.generate(model, tokenizer, [source for source, _ in test], params)
        metrics = {**score([finish(text) for text in outputs]), "test_examples": len(test)}
        mlflow.log_metrics({f"test_{key}": value for key, value in metrics.items()} | speed)
        folder = seq2seq.save(model, tokenizer, plan.model_root / name)
        if plan.log_models:
            mlflow.log_artifacts(str(folder), "model")
    return run.info.run_id, metrics, folder


def _capped(items: list, limit: int | None) -> list:
    return items[:limit] if limit else items


def citesum_rows(plan: Plan, splits: dict[str, list[dict]], aic: dict[str, str]) -> tuple[list[dict], Path | None]:
    """The fine-tuned rows of Tables 5 and 7 on the release's test split; also the CITES model folder."""
    train = _capped(splits.get("train", []), plan.train_limit)
    texts = [text for e in train for text in (e.get("abstract"), e.get("target"), e.get("title")) if text]
    rows, cites = [], None
    for experiment in EXPERIMENTS:
        values = dict(task=experiment.task, source=experiment.source, targets=experiment.targets)
        values |= dict(eval_set="citesum", setting="fine-tuned", variant="", seeds=1)
        values["train_examples"] = len(train) if plan.train_limit else None  # null: the whole split
        reason = _citesum_reason(experiment, splits, aic, cites)
        if reason:
            rows.append(plan.row(experiment.model, **values, reason=reason))
            continue
        base = cites if experiment.model == "CITES" else plan.base_folder(texts)
        test = _capped(evaluation_pairs(splits["test"], experiment, aic), plan.test_limit)
        gold = [references[0] for _, references in test]
        score = (lambda out, gold=gold: discipline_f1(out, gold)) if experiment.task == "discipline" else None
        run_id, metrics, folder = train_tracked(
            plan,
            experiment.name,
            base,
            training_pairs(train, experiment, aic),
            evaluation_pairs(splits.get("validation", []), experiment, aic),
            test,
            score or (lambda out, test=test: rouge_means(out, [refs for _, refs in test])),
            {"model": experiment.model, "task": experiment.task, "table": "7" if experiment.task != "tldr" else "5"},
            params=None if experiment.task == "tldr" else {"min_new_tokens": 0},  # a discipline is a word or two
        )
        if experiment == CITES:
            cites = folder
        rows.append(plan.row(experiment.model, **values, **metrics, examples=len(test), mlflow_run_id=run_id))
    return rows, cites


def _citesum_reason(experiment: Experiment, splits: dict, aic: dict, cites: Path | None) -> str | None:
    if not splits.get("train") or not splits.get("test"):
        return "the CiteSum release has no train or no test examples"
    if experiment.source == "aic" and not aic:
        return (
            "no cited paper of the release has introduction or conclusion paragraphs in the lake (s2orc_paragraphs): "
            "the release carries only abstracts, and AIC needs the cited papers' full texts in the dump"
        )
    if experiment.model == "CITES" and cites is None:
        return "CITES (BART fine-tuned on CiteSum abstract -> TLDR) was not trained"
    if not evaluation_pairs(splits["test"], experiment, None if experiment.source != "aic" else aic):
        return f"no test example has a {experiment.task}"
    return None


def scitldr_rows(plan: Plan, dumps: Path, cites: Path | None, base_texts: list[str]) -> list[dict]:
    """Table 6: CITES zero-shot (post-processing, prompting, prompting with the gold first 3 tokens) and few-shot
    (CITES 32 and 128, BART 128; averaged over ``plan.seeds`` runs) on SciTLDR-A's test split."""
    shapes = [("CITES", "zero-shot", variant, 0) for variant in ZERO_SHOT]
    shapes += [(model, "few-shot", "", size) for model, size in transfer.FEW_SHOT_SIZES]
    common = dict(task="tldr", source="abstract", targets="tldr", eval_set="scitldr-a")
    reason = transfer.missing_reason(dumps) or (None if cites else "CITES was not trained (no CiteSum rows)")
    if reason:
        return [
            plan.row(m, **common, setting=s, variant=v, train_examples=n, seeds=plan.seeds if n else 1, reason=reason)
            for m, s, v, n in shapes
        ]
    test = _capped(transfer.read_split(dumps, "test"), plan.test_limit)
    references = [refs for _, refs in test]
    rows = [
        plan.row("CITES", **common, setting="zero-shot", variant=variant, train_examples=0, seeds=1, **values)
        for variant, values in zero_shot(plan, cites, test).items()
    ]
    train, dev = transfer.read_split(dumps, "train"), transfer.read_split(dumps, "dev")
    for model, size in transfer.FEW_SHOT_SIZES:
        base = cites if model == "CITES" else plan.base_folder(base_texts)
        runs, scores, shots = [], [], min(size, len(train))  # a SciTLDR train split smaller than the size: all of it
        for seed in range(plan.seeds):
            run_id, metrics, _ = train_tracked(
                plan,
                f"{model}-scitldr-{size}-shot-seed{seed}",
                base,
                transfer.few_shot_sample(train, size, seed),
                dev,
                test,
                lambda out: rouge_means(out, references),
                {"model": model, "task": "tldr", "table": "6", "shots": str(size)},
                params={**({} if plan.checkpoint is None else FEW_SHOT_PARAMS), "seed": seed},
                finish=transfer.remove_ref,
            )
            runs.append(run_id)
            scores.append(metrics)
        averaged = {name: round(mean(s[name] for s in scores), 2) for name in ("rouge1", "rouge2", "rougeL")}
        rows.append(
            plan.row(model, **common, setting="few-shot", variant="", train_examples=shots, seeds=plan.seeds)
            | averaged
            | {"examples": len(test), "mlflow_run_id": ",".join(runs)}
        )
    return rows


ZERO_SHOT = ("post-processing", "prompting", "prompting, gold 3 tokens")


def zero_shot(plan: Plan, cites: Path, test: list[tuple[str, list[str]]]) -> dict[str, dict]:
    """CITES without fine-tuning on SciTLDR: its plain outputs post-processed, and outputs started from "This paper"
    or from the reference's first 3 tokens (REF removed). One MLflow run for the three."""
    import mlflow

    from citeworth_assets.lib.models.tracking import tracked_run
    from citeworth_models import seq2seq

    params = plan.base_params()
    sources, references = [source for source, _ in test], [refs for _, refs in test]
    prompts = {
        "post-processing": (None, transfer.post_process),
        "prompting": ([transfer.PROMPT] * len(test), transfer.remove_ref),
        "prompting, gold 3 tokens": ([transfer.gold_prompt(refs) for refs in references], transfer.remove_ref),
    }
    model, tokenizer = seq2seq.load(cites)
    results = {}
    tags = {"model": "CITES", "task": "tldr", "table": "6", "checkpoint": plan.checkpoint_name}
    with tracked_run(plan.tracking[0], "CITES-scitldr-zero-shot", tags, plan.tracking[1], EXPERIMENT) as run:
        mlflow.log_params({**plan.described, **params, "base": str(cites)})
        for variant, (prompt, finish) in prompts.items():
            outputs, speed = seq2seq.generate(model, tokenizer, sources, params, prompts=prompt)
            scores = rouge_means([finish(text) for text in outputs], references)
            key = variant.replace(", ", "_").replace(" ", "_").replace("-", "_")
            mlflow.log_metrics({f"{key}_{name}": value for name, value in {**scores, **speed}.items()})
            results[variant] = {**scores, "examples": len(test), "mlflow_run_id": run.info.run_id}
    return results
