"""ROUGE-SciQFS §3-4: clean tables from the parsed S2ORC papers, examples with the greedy ROUGE
augmentation, the release, and the baselines of Table 3 tracked in MLflow."""

from itertools import chain

import dagster as dg
import pyarrow as pa

from citeworth_assets.lib import lake
from citeworth_assets.lib.jsonl import IssueLog
from citeworth_assets.lib.sciqfs import arxiv_source, lake_tables
from citeworth_assets.lib.sciqfs.augmentation import (
    AugmentationSettings,
    augment_examples,
)
from citeworth_assets.lib.sciqfs.card import CARD
from citeworth_assets.lib.sciqfs.examples import (
    ExampleCounts,
    ExampleSettings,
    build_examples,
)
from citeworth_assets.lib.sciqfs.release import release_row
from citeworth_assets.lib.sciqfs.splits import SplitSettings, assign_splits
from citeworth_assets.lib.sciqfs.statistics import (
    SPLIT_ORDER,
    STATISTICS_SCHEMA,
    statistics_table,
    summarise_example,
)
from citeworth_assets.lib.sciqfs.tables import (
    CITATIONS_SCHEMA,
    PAPERS_SCHEMA,
    REFERENCES_SCHEMA,
    build_tables,
)
from citeworth_assets.lib.sentences import splitter
from citeworth_assets.lib.warehouse import markdown_table
from citeworth_assets.resources import CiteworthSettings, TrainingDevice

GROUP = "sciqfs"
TRAINING_POOL = "gpu"
EMBEDDINGS = ("TFIDF-Words", "TFIDF-Chars", "Sentence-BERT", "SPECTER")  # the names of citeworth_models.sciqfs
CLASSIFIERS = ("cosine", "euclidean", "mlp", "lstm", "transformer")
ARXIV_TABLES = ("arxiv_papers", "arxiv_paragraphs", "arxiv_references", "arxiv_resolutions")
CLEAN_TABLES = {
    "sciqfs_papers": PAPERS_SCHEMA,
    "sciqfs_references": REFERENCES_SCHEMA,
    "sciqfs_citations": CITATIONS_SCHEMA,
}


class TablesConfig(dg.Config):
    """Which parsed papers feed the tables: S2ORC (pdf_parses) and unarXive (the arXiv lake tables)."""

    s2orc: bool = True
    arxiv: bool = True


@dg.asset(
    deps=[
        dg.AssetDep("s2orc_papers", partition_mapping=dg.AllPartitionMapping()),
        dg.AssetDep("s2orc_paragraphs", partition_mapping=dg.AllPartitionMapping()),
        "citesum_cited_abstracts",
        *(dg.AssetDep(name, partition_mapping=dg.AllPartitionMapping()) for name in ARXIV_TABLES),
        "works",
    ],
    group_name=GROUP,
    kinds={"parquet"},
    description="The Papers, References and Citations tables of §3.2 (lake tables sciqfs_papers, sciqfs_references, "
    "sciqfs_citations) from the parsed papers of every shard: a citation is the sentence around an S2ORC citation "
    "span; references are de-duplicated by normalised title (one duplicate gives all fields), with title and "
    "abstract from the cited-abstract catalogue through linked_paper_id. unarXive papers (config arxiv) add "
    "theirs: references linked to catalogue works by the resolver or to arXiv ids, queries from in-dump abstracts or "
    "the arXiv metadata snapshot (the catalogue has no abstracts). Materialize after new shards.",
)
def sciqfs_tables(
    context: dg.AssetExecutionContext, config: TablesConfig, citeworth: CiteworthSettings
) -> dg.MaterializeResult:
    settings, log, split = citeworth.settings, IssueLog(), splitter(citeworth.splitter).split
    s2orc = (
        lake_tables.papers_from_lake(settings.lake, split, lake_tables.cited_papers(settings.lake))
        if config.s2orc
        else ()
    )
    arxiv = arxiv_source.arxiv_papers(settings.lake, settings.dumps, split, log) if config.arxiv else ()
    papers = chain(s2orc, arxiv)
    tables = build_tables(papers, log)
    counts = {}
    for name, schema in CLEAN_TABLES.items():
        with lake.PartitionWriter(settings.lake, name, schema) as out:
            out.write_table(getattr(tables, name.removeprefix("sciqfs_")))
        counts[name] = out.rows_written
    for issue in log.issues[:20]:
        context.log.warning(str(issue))
    with_abstract = sum(1 for value in tables.references.column("abstract").to_pylist() if value)
    return dg.MaterializeResult(
        metadata={
            **counts,
            "references_with_abstract": with_abstract,
            "problems": dg.MetadataValue.json(dict(log.counts)),
        }
    )


class ExamplesConfig(dg.Config):
    """§3.3-3.5 and the split: the augmentation's ROUGE-N, the paper-length limit (none by default), the seed."""

    rouge_type: str = AugmentationSettings.rouge_type
    use_stemmer: bool = AugmentationSettings.use_stemmer
    augment: bool = True
    max_sentences: int | None = ExampleSettings.max_sentences
    citation_grouping: str = ExampleSettings.citation_grouping
    seed: int = SplitSettings.seed


@dg.asset(
    deps=[sciqfs_tables],
    group_name=GROUP,
    kinds={"parquet"},
    description="One example per (citing paper, reference with an abstract): the paper's sentences, the reference's "
    "abstract as query, a label per sentence (its citing sentences, each matched on its own) plus the sentences the "
    "greedy ROUGE-2 augmentation adds (label source citation / rouge), split 80/10/10 by citing paper, seeded. "
    "Skipped pairs are counted by reason. Statistics as Table 1 (lake table sciqfs_statistics).",
)
def sciqfs_examples(config: ExamplesConfig, citeworth: CiteworthSettings) -> dg.MaterializeResult:
    settings = citeworth.settings
    tables = lake_tables.read_tables(settings.lake)
    split_of = assign_splits(tables.papers.column("paper_id").to_pylist(), SplitSettings(seed=config.seed))
    example_settings = ExampleSettings(max_sentences=config.max_sentences, citation_grouping=config.citation_grouping)
    counts, summaries = ExampleCounts(), []
    examples = build_examples(tables, splitter(citeworth.splitter).split, example_settings, counts)
    if config.augment:
        examples = augment_examples(examples, AugmentationSettings(config.rouge_type, config.use_stemmer))
    with lake.PartitionWriter(settings.lake, lake_tables.EXAMPLES, lake_tables.EXAMPLE_SCHEMA, batch_rows=500) as out:
        for example in examples:
            summaries.append(summarise_example(example))
            out.write(release_row(example, split_of[example.paper_id]))
    statistics = statistics_table(summaries, split_of)
    lake.write_partition(settings.lake, "sciqfs_statistics", STATISTICS_SCHEMA, statistics.to_pylist())
    return dg.MaterializeResult(
        metadata={
            "examples": out.rows_written,
            "skipped_pairs": dg.MetadataValue.json(dict(counts.skipped)),
            "unmatched_citing_sentences": counts.unmatched_citing_sentences,
            "table_1": dg.MetadataValue.md(markdown_table(statistics)),
        }
    )


@dg.asset(
    deps=[sciqfs_examples],
    group_name=GROUP,
    kinds={"json", "parquet"},
    description="train/validation/test.jsonl (example_id, paper_id, reference_id, sentences, query, labels, "
    "label_sources, final ROUGE scores) and sciqfs.parquet under <data>/exports/sciqfs/, replaced atomically.",
)
def sciqfs_release(citeworth: CiteworthSettings) -> dg.MaterializeResult:
    from citeworth_assets.lib.releases import write_release

    settings = citeworth.settings
    table = lake.read_partition(settings.lake, lake_tables.EXAMPLES)
    folder = settings.export_dir("sciqfs")
    counts = write_release(folder, table, SPLIT_ORDER, dict, "sciqfs.parquet", CARD)
    return dg.MaterializeResult(metadata={"folder": str(folder), "examples": dg.MetadataValue.json(counts)})


class BaselinesConfig(dg.Config):
    """Appendix A: which embeddings and classifiers, and the neural classifiers' training (few epochs by default)."""

    embeddings: list[str] = list(EMBEDDINGS)
    classifiers: list[str] = list(CLASSIFIERS)
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


@dg.asset(
    deps=[sciqfs_examples],
    group_name=GROUP,
    kinds={"pytorch", "mlflow", "parquet"},
    pool=TRAINING_POOL,
    description="Table 3: each embedding (TF-IDF words and character trigrams; Sentence-BERT all-MiniLM-L6-v2 when the "
    "optional extra citeworth[sciqfs] is installed; SPECTER is not available offline) with each classifier (cosine, "
    "Euclidean, MLP, BiLSTM, Transformer), trained on train and scored per test example: Average Precision and "
    "ROC AUC mean ± SD, single-class examples counted; one MLflow run per baseline. Training: materialize by hand.",
)
def sciqfs_baselines(
    context: dg.AssetExecutionContext,
    config: BaselinesConfig,
    citeworth: CiteworthSettings,
    training_device: TrainingDevice,
) -> dg.MaterializeResult:
    from citeworth_assets.defs.sciqfs.baselines import run_tracked_baselines

    settings = citeworth.settings
    device = training_device.describe()
    rows, per_example = run_tracked_baselines(config, settings, device["training_device"], context.log)
    lake.write_partition(settings.lake, "sciqfs_baselines", lake_tables.BASELINE_SCHEMA, rows)
    lake.write_partition(settings.lake, "sciqfs_baseline_examples", lake_tables.BASELINE_EXAMPLE_SCHEMA, per_example)
    table = pa.Table.from_pylist(rows, schema=lake_tables.BASELINE_SCHEMA).select(
        [
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
    )
    return dg.MaterializeResult(
        metadata={
            "table_3": dg.MetadataValue.md(markdown_table(table, limit=40)),
            "tracking_uri": settings.tracking_uri,
            **device,
        }
    )


sciqfs_assets = [sciqfs_tables, sciqfs_examples, sciqfs_release, sciqfs_baselines]
