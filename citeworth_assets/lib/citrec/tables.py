"""Lake tables of the citation recommendation domain, and the evaluation data set to and from their rows.

The data set is kept in the lake (one partition per data set name, ``dataset=<name>``) so that the model
and evaluation steps rank exactly the candidates and test items that were built, whatever the settings are
now: ``citrec_contexts`` (the candidates' training contexts and the test items), ``citrec_candidates``
(work id, title and fields from the catalogue), ``citrec_dataset_statistics`` (Table 6 with the settings
that made it) and ``citrec_results`` (long format, one row per model, metric and cut-off).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import asdict
from functools import cache

from citeworth_assets.lib.citrec.contexts import WorkInfo
from citeworth_assets.lib.citrec.dataset import (
    CitrecDatasetSettings,
    EvalDataset,
    dataset_statistics,
)
from citeworth_assets.lib.context_csv import CitationContext
from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.read_issues import IssueLog

pa = lazy_module("pyarrow")

DIMENSION = "dataset"  # lake partitions: <table>/dataset=<name>/
DATASET_NAME = re.compile(r"^[a-z][a-z0-9_]*$")  # a partition key: lower-case letters, digits, underscores


@cache
def context_schema() -> pa.Schema:
    return pa.schema(
        [
            ("dataset", pa.string()),
            ("split", pa.string()),
            ("cited", pa.string()),
            ("adjacent", pa.list_(pa.string())),
            ("citing", pa.string()),
            ("citing_arxiv", pa.string()),
            ("text", pa.string()),
            ("source_file", pa.string()),
            ("line", pa.int64()),
        ]
    )


@cache
def candidate_schema() -> pa.Schema:
    return pa.schema(
        [
            ("dataset", pa.string()),
            ("work", pa.string()),
            ("title", pa.string()),
            ("fields_of_study", pa.list_(pa.string())),
            ("train_contexts", pa.int64()),
            ("test_items", pa.int64()),
        ]
    )


@cache
def statistics_schema() -> pa.Schema:
    return pa.schema(
        [
            ("dataset", pa.string()),
            ("split", pa.string()),
            ("candidates", pa.int64()),
            ("tested", pa.int64()),
            ("test_items", pa.int64()),
            ("mean_contexts_per_candidate", pa.float64()),
            ("sd_contexts_per_candidate", pa.float64()),
            ("min_contexts", pa.int64()),
            ("min_citing_papers", pa.int64()),
            ("split_year", pa.int64()),
            ("citing_fields", pa.list_(pa.string())),
            ("read_issues", pa.int64()),
            ("catalogue_fields", pa.list_(pa.string())),
        ]
    )


# the evaluation's long-format results, with the MLflow run that logged them
@cache
def result_schema() -> pa.Schema:
    # the models' evaluation (NumPy, pyarrow) is imported by the runs that score, not by the definitions
    from citeworth_models.citrec.evaluate import result_schema as evaluation_schema

    return evaluation_schema().append(pa.field("run_id", pa.string()))


def check_dataset_name(name: str) -> str:
    """A data set name keys lake partitions, index folders and MLflow runs: it must be a partition key."""
    if not DATASET_NAME.match(name):
        raise ValueError(f"citation recommendation data set name {name!r}: use lower-case letters, digits and _")
    return name


def context_rows(dataset: EvalDataset) -> Iterator[dict]:
    name = dataset.settings.name
    for work in dataset.candidates:
        for c in dataset.train[work]:
            yield _context_row(name, "train", c)
    for item in dataset.test:
        yield _context_row(name, "test", item.context)


def _context_row(name: str, split: str, c: CitationContext) -> dict:
    return {
        "dataset": name,
        "split": split,
        "cited": c.cited,
        "adjacent": list(c.adjacent),
        "citing": c.citing,
        "citing_arxiv": c.citing_arxiv,
        "text": c.text,
        "source_file": c.source,
        "line": c.line,
    }


def candidate_rows(dataset: EvalDataset, catalogue: Mapping[str, WorkInfo] | None) -> list[dict]:
    tested: dict[str, int] = {}
    for item in dataset.test:
        tested[item.cited] = tested.get(item.cited, 0) + 1
    rows = []
    for work in dataset.candidates:
        info = (catalogue or {}).get(work, WorkInfo())
        rows.append(
            {
                "dataset": dataset.settings.name,
                "work": work,
                "title": info.title,
                "fields_of_study": list(info.fields_of_study),
                "train_contexts": len(dataset.train[work]),
                "test_items": tested.get(work, 0),
            }
        )
    return rows


def statistics_row(dataset: EvalDataset, issues: IssueLog, catalogue_fields: list[str]) -> dict:
    settings = dataset.settings
    return {
        **asdict(dataset_statistics(dataset)),
        "min_contexts": settings.min_contexts,
        "min_citing_papers": settings.min_citing_papers,
        "split_year": settings.split_year,
        "citing_fields": list(settings.citing_fields),
        "read_issues": issues.total,
        "catalogue_fields": catalogue_fields,
    }


def settings_from_statistics(row: Mapping) -> CitrecDatasetSettings:
    return CitrecDatasetSettings(
        row["dataset"],
        row["min_contexts"],
        row["min_citing_papers"],
        row["split_year"],
        tuple(row["citing_fields"] or ()),
    )


def dataset_from_tables(settings: CitrecDatasetSettings, candidates: pa.Table, contexts: pa.Table) -> EvalDataset:
    """The :class:`EvalDataset` that :func:`context_rows` and :func:`candidate_rows` wrote."""
    works = sorted(candidates.column("work").to_pylist())
    dataset = EvalDataset(settings, works, {work: [] for work in works}, [])
    for batch in contexts.to_batches(max_chunksize=50_000):
        for row in batch.to_pylist():
            context = CitationContext(
                row["cited"],
                tuple(row["adjacent"] or ()),
                row["citing"],
                row["citing_arxiv"],
                row["text"],
                row["source_file"] or "",
                row["line"] or 0,
            )
            dataset.add(context, train=row["split"] == "train")
    return dataset
