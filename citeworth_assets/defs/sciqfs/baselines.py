"""The baselines of ROUGE-SciQFS Table 3 on the release: the untrained rankers in every build, the trained
classifiers by hand (pool ``gpu``). Both are one MLflow run per baseline (:mod:`lib.sciqfs.tracking`); the heavy
libraries (scikit-learn, torch, MLflow) are imported when an asset runs, never when the code location loads."""

import dagster as dg

from citeworth_assets.defs.automation import follows_shards
from citeworth_assets.lib import lake
from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.sciqfs import lake_tables
from citeworth_assets.lib.warehouse import markdown_table
from citeworth_assets.resources import PlatformResource, TrainingDevice

pa = lazy_module("pyarrow")

GROUP = "sciqfs"
TRAINING_POOL = "gpu"
EMBEDDINGS = ("TFIDF-Words", "TFIDF-Chars", "Sentence-BERT", "SPECTER")  # the names of citeworth_models.sciqfs
RANKERS = ("cosine", "euclidean")  # no training
TRAINED = ("mlp", "lstm", "transformer")
SHOWN = [
    "classifier",
    "embeddings",
    "status",
    "evaluated",
    "single_class",
    "average_precision_mean",
    "average_precision_std",
    "roc_auc_mean",
    "roc_auc_std",
]


class RankersConfig(dg.Config):
    """The untrained baselines: similarity of each sentence to the query (TF-IDF fitted on the training split)."""

    embeddings: list[str] = ["TFIDF-Words", "TFIDF-Chars"]
    classifiers: list[str] = list(RANKERS)
    train_split: str = "train"
    test_split: str = "test"


class BaselinesConfig(dg.Config):
    """Appendix A: which embeddings and classifiers, and the neural classifiers' training (few epochs by default)."""

    embeddings: list[str] = list(EMBEDDINGS)
    classifiers: list[str] = list(TRAINED)
    epochs: int = 30
    learning_rate: float = 1e-3
    weight_decay: float = 0.0
    hidden: int = 128
    layers: int = 1
    batch_size: int = 8
    seed: int = 0
    # "all" takes every example: for collections too small for a test split (only the rankers are then fair)
    train_split: str = "train"
    test_split: str = "test"


def _score(context, config, citeworth: PlatformResource, key: str, device: str = "cpu", **training) -> dict:
    """Run the chosen baselines on the release, write their lake folder ``baselines=<key>``; the asset's metadata."""
    from citeworth_assets.lib.sciqfs import tracking
    from citeworth_models.sciqfs.baselines import BaselineSettings
    from citeworth_models.sciqfs.rankers import RankerTrainingSettings

    settings = citeworth.settings
    folder = settings.export_dir("sciqfs")
    rows, per_example, note = [], [], None
    if key == "rankers" and not tracking.release_documents(folder, "all"):
        note = "no examples in the release"
    else:
        train, test, note = tracking.baseline_documents(
            folder, config.train_split, config.test_split, score_all_when_no_test=key == "rankers"
        )
        chosen = BaselineSettings(
            tuple(config.embeddings), tuple(config.classifiers), RankerTrainingSettings(device=device, **training)
        )
        params = {"train_split": config.train_split, "test_split": config.test_split, "scored_on": note or "test"}
        rows, per_example = tracking.run_tracked_baselines(
            train,
            test,
            chosen,
            settings.tracking_uri,
            settings.mlruns,
            tracking.release_version(folder),
            params,
            context.log,
        )
    dimension = lake_tables.BASELINES_DIMENSION
    lake_tables.drop_unpartitioned(settings.lake, [lake_tables.BASELINES, lake_tables.BASELINE_EXAMPLES])
    lake.write_partition(settings.lake, lake_tables.BASELINES, lake_tables.baseline_schema(), rows, key, dimension)
    lake.write_partition(
        settings.lake, lake_tables.BASELINE_EXAMPLES, lake_tables.baseline_example_schema(), per_example, key, dimension
    )
    table = pa.Table.from_pylist(rows, schema=lake_tables.baseline_schema()).select(SHOWN)
    return {
        "table_3": dg.MetadataValue.md(markdown_table(table, limit=40)),
        "scored_on": note or f"{config.test_split} split",
        "tracking_uri": settings.tracking_uri,
    }


@dg.asset(
    deps=["sciqfs_release"],
    automation_condition=follows_shards(),
    group_name=GROUP,
    kinds={"mlflow", "parquet"},
    description="Table 3's untrained baselines, in every build: cosine similarity and Euclidean distance of each "
    "sentence to the query on TF-IDF words and character trigrams (fitted on train), scored per test example "
    "(every example when the release has no test split): Average Precision and ROC AUC mean ± SD. Lake "
    "sciqfs_baselines (baselines=rankers); one MLflow run per baseline (experiment sciqfs).",
)
def sciqfs_ranking_baselines(
    context: dg.AssetExecutionContext, config: RankersConfig, citeworth: PlatformResource
) -> dg.MaterializeResult:
    return dg.MaterializeResult(metadata=_score(context, config, citeworth, "rankers"))


@dg.asset(
    deps=["sciqfs_release"],
    group_name=GROUP,
    kinds={"pytorch", "mlflow", "parquet"},
    pool=TRAINING_POOL,
    description="Table 3's trained baselines: each embedding (TF-IDF words and character trigrams; Sentence-BERT "
    "all-MiniLM-L6-v2 when the optional extra citeworth[sciqfs] is installed; SPECTER is not available offline) "
    "with each trained classifier (MLP, BiLSTM, Transformer), trained on train and scored per test example. Lake "
    "sciqfs_baselines (baselines=trained); one MLflow run per baseline. Training: materialize by hand.",
)
def sciqfs_baselines(
    context: dg.AssetExecutionContext,
    config: BaselinesConfig,
    citeworth: PlatformResource,
    training_device: TrainingDevice,
) -> dg.MaterializeResult:
    device = training_device.describe()
    training = {
        name: getattr(config, name)
        for name in ("epochs", "learning_rate", "weight_decay", "hidden", "layers", "batch_size", "seed")
    }
    metadata = _score(context, config, citeworth, "trained", device["training_device"], **training)
    return dg.MaterializeResult(metadata={**metadata, **device})


baseline_assets = [sciqfs_ranking_baselines, sciqfs_baselines]
