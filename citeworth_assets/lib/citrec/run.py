"""Entry points the CLI and the Dagster assets wrap: evaluate the recommenders of :mod:`citeworth_models.citrec` on
context CSVs, recommend for one context.

``evaluate_csv`` runs §6.2's evaluation on any context CSV in the unarXive format: data set, Table 6
statistics, long-format results and optionally the metric plot. Models that need a parser are skipped,
with the reason, when none is installed; an unknown model name is an error.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from citeworth_assets.lib.citrec.contexts import WorkInfo
from citeworth_assets.lib.citrec.dataset import (
    CitrecDatasetSettings,
    DatasetStatistics,
    EvalDataset,
    dataset_from_csv,
    dataset_statistics,
)
from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.read_issues import IssueLog
from citeworth_models.citrec.base import Recommender
from citeworth_models.citrec.evaluate import ModelRun, ScoringSettings, result_rows, result_schema, run_model
from citeworth_models.citrec.nlp import ParserUnavailable
from citeworth_models.citrec.registry import MODELS, create_model

pa = lazy_module("pyarrow")


@dataclass
class EvaluationReport:
    statistics: DatasetStatistics
    results: pa.Table
    issues: IssueLog
    skipped: dict[str, str] = field(default_factory=dict)  # model -> why it did not run
    plot: Path | None = None
    dataset: EvalDataset | None = None
    runs: dict[str, ModelRun] = field(default_factory=dict)  # model -> its rankings (TREC run files)


def catalogue_field_names(catalogue: Mapping[str, WorkInfo] | None) -> list[str]:
    return sorted({name for info in (catalogue or {}).values() for name in info.fields_of_study})


def evaluate_csv(
    paths: Sequence[str | Path],
    settings: CitrecDatasetSettings | None = None,
    catalogue: Mapping[str, WorkInfo] | None = None,
    models: Sequence[str] = tuple(MODELS),
    plot_path: str | Path | None = None,
    runner: ScoringSettings | None = None,
) -> EvaluationReport:
    settings, runner = settings or CitrecDatasetSettings(), runner or ScoringSettings()
    unknown = [name for name in models if name not in MODELS]
    if unknown:
        raise KeyError(f"unknown citation recommendation model(s) {unknown}; known: {', '.join(MODELS)}")
    issues = IssueLog()
    dataset = dataset_from_csv(paths, settings, catalogue, issues)
    rows, skipped, runs = [], {}, {}
    field_names = catalogue_field_names(catalogue)
    for name in models:
        try:
            runs[name] = run_model(create_model(name, field_names), dataset, runner)
        except ParserUnavailable as error:
            skipped[name] = str(error)
            continue
        rows += result_rows(runs[name], dataset, runner.max_k)
    results = pa.Table.from_pylist(rows, schema=result_schema())
    report = EvaluationReport(dataset_statistics(dataset), results, issues, skipped, dataset=dataset, runs=runs)
    if plot_path is not None and rows:
        from citeworth_models.citrec.plots import plot_metrics

        report.plot = plot_metrics(results, plot_path, settings.name)
    return report


@dataclass(frozen=True)
class Recommendation:
    work: str
    title: str | None
    score: float


def recommend(
    model: Recommender,
    dataset: EvalDataset,
    context: str,
    top: int = 10,
    catalogue: Mapping[str, WorkInfo] | None = None,
) -> list[Recommendation]:
    """The ``top`` candidates for one context from a model fitted on ``dataset``'s candidates.

    A context without ``MAINCIT`` is taken to cite at its end, where NPmarker looks for its noun phrase.
    """
    if "MAINCIT" not in context:
        context = f"{context.rstrip()} MAINCIT"
    scores = model.score([context])[0]
    (ranking,) = model.rank([context], top)
    return [
        Recommendation(
            dataset.candidates[i], (catalogue or {}).get(dataset.candidates[i], WorkInfo()).title, float(scores[i])
        )
        for i in ranking
    ]
