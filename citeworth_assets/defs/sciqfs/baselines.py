"""The baselines asset's work: train on the training split, score the test split, one MLflow run per baseline.

Kept apart from ``assets.py`` because it imports torch, scikit-learn and MLflow, which the code location must
not import when it loads.
"""

from __future__ import annotations

from citeworth_assets.lib import lake
from citeworth_assets.lib.sciqfs import lake_tables


def _documents(lake_root, split: str):
    """The examples of one split, or of every split for ``"all"``."""
    import pyarrow.compute as pc

    from citeworth_models.sciqfs.documents import documents

    table = lake.read_partition(
        lake_root, lake_tables.EXAMPLES, columns=["example_id", "split", "sentences", "query", "labels"]
    )
    if split != "all":
        table = table.filter(pc.equal(table.column("split"), split))
    return documents(table.to_pylist())


def run_tracked_baselines(config, settings, device: str, log) -> tuple[list[dict], list[dict]]:
    """(Table 3 rows, per-example rows); every run row carries its MLflow run id."""
    import mlflow

    from citeworth_assets.lib.models.tracking import dataset_version, tracked_run
    from citeworth_models.sciqfs.baselines import BaselineSettings, run_baselines
    from citeworth_models.sciqfs.classifiers import TrainSettings

    train, test = _documents(settings.lake, config.train_split), _documents(settings.lake, config.test_split)
    if not train or not test:
        raise ValueError(
            f"sciqfs baselines need training and test examples ({config.train_split} {len(train)}, "
            f"{config.test_split} {len(test)}): build sciqfs_examples from more papers, or set train_split "
            "and test_split to 'all' to score the rankers on every example"
        )
    version = dataset_version(lake.partition_dir(settings.lake, lake_tables.EXAMPLES) / "part-0.parquet")
    training = TrainSettings(
        epochs=config.epochs,
        learning_rate=config.learning_rate,
        weight_decay=config.weight_decay,
        hidden=config.hidden,
        layers=config.layers,
        batch_size=config.batch_size,
        seed=config.seed,
        device=device,
    )
    rows, per_example = [], []
    for embedding in config.embeddings:
        chosen = BaselineSettings(embeddings=(embedding,), classifiers=tuple(config.classifiers), train=training)
        for row in run_baselines(train, test, chosen):
            examples = row.pop("per_example", [])
            row.update(dataset_version=version, run_id=None)
            if row["status"] == "ok":
                name = f"sciqfs_{row['classifier']}_{row['embeddings']}".lower().replace(" ", "_")
                tags = {
                    "model": name,
                    "dataset": "sciqfs",
                    "classifier": row["classifier"],
                    "embeddings": row["embeddings"],
                }
                with tracked_run(settings.tracking_uri, name, tags, settings.mlruns) as run:
                    mlflow.log_params(
                        {
                            **vars(training),
                            "dataset_version": version,
                            "train_split": config.train_split,
                            "test_split": config.test_split,
                            "train_examples": len(train),
                            "test_examples": len(test),
                        }
                    )
                    mlflow.log_metrics(
                        {
                            key: row[key]
                            for key in (
                                "average_precision_mean",
                                "average_precision_std",
                                "roc_auc_mean",
                                "roc_auc_std",
                                "evaluated",
                                "single_class",
                            )
                            if row[key] is not None
                        }
                    )
                    mlflow.log_dict({"per_example": examples}, "per_example.json")
                row["run_id"] = run.info.run_id
            log.info(f"{row['classifier']} on {row['embeddings']}: {row['status']}")
            rows.append(row)
            per_example.extend(
                {"classifier": row["classifier"], "embeddings": row["embeddings"], **e} for e in examples
            )
    return rows, per_example
