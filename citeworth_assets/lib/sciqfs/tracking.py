"""The ROUGE-SciQFS baselines (Table 3) on a release folder, one MLflow run per baseline (no Dagster import).

Runs go to their own experiment, ``sciqfs``, so that the cite-worthiness comparison (the latest run per ``model``
tag of the ``citeworth`` experiment) never mistakes a sentence ranker for a classifier. The graph's two baselines
assets (the untrained rankers in every build, the trained classifiers by hand) and ``citeworth sciqfs
--baselines`` read the documents from the release's split files with :func:`baseline_documents`.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

from citeworth_assets.lib.models.tracking import dataset_version
from citeworth_assets.lib.sciqfs.release import release_documents
from citeworth_assets.lib.sciqfs.statistics import SPLIT_ORDER

EXPERIMENT = "sciqfs"
METRICS = (
    "average_precision_mean",
    "average_precision_std",
    "roc_auc_mean",
    "roc_auc_std",
    "evaluated",
    "single_class",
)


def release_version(folder: Path) -> str:
    """A content hash of the release's split Parquet files (the version a baseline was scored on)."""
    import hashlib

    digest = hashlib.sha256()
    for split in SPLIT_ORDER:
        path = folder / f"{split}.parquet"
        if path.exists():
            digest.update(f"{split}:{dataset_version(path)};".encode())
    return digest.hexdigest()[:16]


def baseline_documents(folder: Path, train_split: str, test_split: str, score_all_when_no_test: bool = False):
    """(train, test, note): the documents of the two splits (``all``: every example). With
    ``score_all_when_no_test``, a collection too small for a test split is scored on every example (fair for the
    rankers only: they are not trained) and ``note`` says so; otherwise an empty split raises."""
    train, test = release_documents(folder, train_split), release_documents(folder, test_split)
    everything = release_documents(folder, "all")
    if score_all_when_no_test and everything and not (train and test):
        note = f"{test_split} or {train_split} split empty (too few papers): scored on every example"
        return train or everything, everything, note
    if not train or not test:
        raise ValueError(
            f"sciqfs baselines need training and test examples ({train_split} {len(train)}, {test_split} "
            f"{len(test)}): build the examples from more papers, or set train_split and test_split to 'all' to "
            "score the rankers on every example"
        )
    return train, test, None


def _name(row: dict) -> str:
    return f"sciqfs_{row['classifier']}_{row['embeddings']}".lower().replace(" ", "_")


def _log_run(row: dict, examples: list[dict], params: dict, tracking_uri: str, artifacts: Path | None) -> str:
    import mlflow

    from citeworth_assets.lib.models.tracking import tracked_run

    tags = {"model": _name(row), "dataset": "sciqfs", "classifier": row["classifier"], "embeddings": row["embeddings"]}
    with tracked_run(tracking_uri, _name(row), tags, artifacts, EXPERIMENT) as run:
        mlflow.log_params(params)
        mlflow.log_metrics({key: row[key] for key in METRICS if row[key] is not None})
        mlflow.log_dict({"per_example": examples}, "per_example.json")
    return run.info.run_id


def run_tracked_baselines(
    train, test, settings, tracking_uri: str, artifacts: Path | None, version: str, params: dict, log=None
) -> tuple[list[dict], list[dict]]:
    """(Table 3 rows, per-example rows) of ``settings`` (a ``BaselineSettings``), one embedding at a time; every
    row that ran carries its MLflow run id."""
    from citeworth_models.sciqfs.baselines import BaselineSettings, run_baselines

    run_params = {
        **asdict(settings.train),
        **params,
        "dataset_version": version,
        "train_examples": len(train),
        "test_examples": len(test),
    }
    rows, per_example = [], []
    for embedding in settings.embeddings:
        chosen = BaselineSettings(embeddings=(embedding,), classifiers=settings.classifiers, train=settings.train)
        for row in run_baselines(train, test, chosen):
            examples = row.pop("per_example", [])
            row.update(dataset_version=version, run_id=None)
            if row["status"] == "ok":
                row["run_id"] = _log_run(row, examples, run_params, tracking_uri, artifacts)
            if log is not None:
                log.info(f"{row['classifier']} on {row['embeddings']}: {row['status']}")
            rows.append(row)
            per_example.extend(
                {"classifier": row["classifier"], "embeddings": row["embeddings"], **e} for e in examples
            )
    return rows, per_example
