"""ROUGE-SciQFS (ROUGE-SciQFS §3): the clean tables and the examples per input partition (an S2ORC shard, a unarXive
dump file), and the release gathered from every partition."""

from dataclasses import dataclass

import dagster as dg

from citeworth_assets.defs.arxiv.partitions import arxiv_dump_files
from citeworth_assets.defs.automation import follows_shards
from citeworth_assets.defs.s2orc.partitions import s2orc_shards
from citeworth_assets.lib import filters, lake
from citeworth_assets.lib.dataset_cards import s2ag_releases
from citeworth_assets.lib.read_issues import IssueLog
from citeworth_assets.lib.sciqfs import arxiv_source, dataset, lake_tables, s2orc_lake
from citeworth_assets.lib.sciqfs.augmentation import AugmentationSettings
from citeworth_assets.lib.sciqfs.examples import ExampleCounts, ExampleSettings
from citeworth_assets.lib.sciqfs.reasons import REASONS
from citeworth_assets.lib.sciqfs.release import write_release
from citeworth_assets.lib.sciqfs.splits import SplitSettings
from citeworth_assets.lib.sciqfs.statistics import statistics_schema
from citeworth_assets.lib.sentences import splitter
from citeworth_assets.lib.warehouse import markdown_table
from citeworth_assets.resources import PlatformResource

GROUP = "sciqfs"


@dataclass(frozen=True)
class Source:
    """One kind of input partition: its partitions, lake dimension, what its tables read, and how its papers come."""

    name: str
    partitions: dg.PartitionsDefinition
    dimension: str
    deps: tuple
    reads: str

    def papers(self, settings, key: str, split, log: IssueLog):
        if self.name == "s2orc":
            return s2orc_lake.shard_papers(settings.lake, key, split, log)
        return arxiv_source.arxiv_papers(settings.lake, settings.dumps, key, split, log)


SOURCES = (
    Source(
        "s2orc",
        s2orc_shards,
        lake_tables.S2ORC_DIMENSION,
        ("s2orc_papers", "s2orc_paragraphs", "s2orc_duplicate_papers", "citesum_cited_abstracts"),
        "the shard's parsed papers (a citation is the sentence around an S2ORC citation span); references titled "
        "and given their abstract by the cited-abstract catalogue through linked_paper_id; a paper an earlier shard "
        "gives is left out (duplicate_paper)",
    ),
    Source(
        "arxiv",
        arxiv_dump_files,
        lake_tables.ARXIV_DIMENSION,
        (
            "arxiv_paragraphs",
            "arxiv_references",
            "arxiv_resolutions",
            dg.AssetDep("arxiv_papers", partition_mapping=dg.AllPartitionMapping()),
            "works",
        ),
        "the dump file's unarXive papers (markers read as tokens, the citation the sentence around its CIT); "
        "references linked to catalogue works by the resolver or to arXiv ids, queries from the abstracts of cited "
        "papers of any dump file or the arXiv metadata snapshot (the catalogue has no abstracts)",
    ),
)


def tables_asset(source: Source) -> dg.AssetsDefinition:
    @dg.asset(
        name=f"sciqfs_{source.name}_tables",
        partitions_def=source.partitions,
        deps=list(source.deps),
        automation_condition=follows_shards(),
        group_name=GROUP,
        kinds={"parquet"},
        description="The Papers, References and Citations tables of ROUGE-SciQFS §3.2 (lake tables sciqfs_papers, "
        f"sciqfs_references, sciqfs_citations, {source.dimension}=<key>) from {source.reads}. References are "
        "de-duplicated by normalised title within the partition (one duplicate gives all fields).",
    )
    def sciqfs_tables(context: dg.AssetExecutionContext, citeworth: PlatformResource) -> dg.MaterializeResult:
        settings, key, log = citeworth.settings, context.partition_key, IssueLog()
        papers = source.papers(settings, key, splitter(citeworth.splitter).split, log)
        counts = lake_tables.write_tables(settings.lake, papers, log, key, source.dimension)
        for issue in log.issues[:20]:
            context.log.warning(str(issue))
        return dg.MaterializeResult(metadata={**counts, "problems": dg.MetadataValue.json(dict(log.counts))})

    return sciqfs_tables


class ExamplesConfig(dg.Config):
    """ROUGE-SciQFS §3.3-3.5: the augmentation's ROUGE-N, the paper-length limit (none by default), the grouping."""

    rouge_type: str = AugmentationSettings.rouge_type
    use_stemmer: bool = AugmentationSettings.use_stemmer
    augment: bool = True
    max_sentences: int | None = ExampleSettings.max_sentences
    citation_grouping: str = ExampleSettings.citation_grouping

    def settings(self) -> dataset.SciqfsSettings:
        return dataset.SciqfsSettings(
            examples=ExampleSettings(max_sentences=self.max_sentences, citation_grouping=self.citation_grouping),
            augmentation=AugmentationSettings(self.rouge_type, self.use_stemmer),
            augment=self.augment,
        )


def examples_asset(source: Source, tables: dg.AssetsDefinition) -> dg.AssetsDefinition:
    @dg.asset(
        name=f"sciqfs_{source.name}_examples",
        partitions_def=source.partitions,
        deps=[tables],
        automation_condition=follows_shards(),
        group_name=GROUP,
        kinds={"parquet"},
        description="One example per (citing paper, reference with an abstract) of the partition: the paper's "
        "sentences, the reference's abstract as query, a label per sentence (its citing sentences, each matched on "
        "its own) plus the sentences the greedy ROUGE-2 augmentation adds (label source citation / rouge). Lake "
        f"table sciqfs_examples, {source.dimension}=<key>; skipped pairs counted by reason. The split is the "
        "release's.",
    )
    def sciqfs_examples(
        context: dg.AssetExecutionContext, config: ExamplesConfig, citeworth: PlatformResource
    ) -> dg.MaterializeResult:
        settings, key, chosen = citeworth.settings, context.partition_key, config.settings()
        tables = lake_tables.read_tables(settings.lake, key, source.dimension)
        with filters.run(settings.lake, f"sciqfs_{source.name}_examples", key, [REASONS]) as run:  # pair tallies
            counts = ExampleCounts(run.tally)
            examples = dataset.partition_examples(tables, splitter(citeworth.splitter).split, chosen, counts)
            written = lake_tables.write_examples(
                settings.lake, examples, key, source.dimension, dataset.example_settings(chosen)
            )
        return dg.MaterializeResult(
            metadata={
                "examples": written,
                "skipped_pairs": dg.MetadataValue.json(dict(counts.skipped)),
                "unmatched_citing_sentences": counts.unmatched_citing_sentences,
            }
        )

    return sciqfs_examples


class ReleaseConfig(dg.Config):
    """The split: 80/10/10 by citing paper, drawn over every citing paper of every partition with this seed."""

    seed: int = SplitSettings.seed


def release_asset(examples: list[dg.AssetsDefinition]) -> dg.AssetsDefinition:
    @dg.asset(
        name="sciqfs_release",
        deps=[dg.AssetDep(asset, partition_mapping=dg.AllPartitionMapping()) for asset in examples],
        automation_condition=follows_shards(),
        group_name=GROUP,
        kinds={"json", "parquet"},
        description="The ROUGE-SciQFS release under <data>/exports/sciqfs/, streamed from every examples partition "
        "and replaced atomically: train/validation/test .jsonl and .parquet (example_id, paper_id, reference_id, "
        "split, sentences, query, labels, label_sources, final ROUGE scores), statistics.parquet (Table 1) and the "
        "dataset card. Splits 80/10/10 by citing paper, seeded (lake sciqfs_splits); Table 1 also in lake "
        "sciqfs_statistics. The same layout as `citeworth sciqfs`.",
    )
    def sciqfs_release(config: ReleaseConfig, citeworth: PlatformResource) -> dg.MaterializeResult:
        settings, splits = citeworth.settings, SplitSettings(seed=config.seed)
        lake_tables.drop_unpartitioned(settings.lake, [*lake_tables.CLEAN_TABLES, lake_tables.EXAMPLES])
        split_of = dataset.release_splits(lake_tables.citing_paper_ids(settings.lake), splits)
        described = dataset.release_settings(lake_tables.example_settings(settings.lake), splits)
        folder = settings.export_dir("sciqfs")
        with lake.replaced_folder(folder) as staging:
            counts, statistics = write_release(
                lake_tables.iter_examples(settings.lake),
                split_of,
                staging,
                described,
                dataset.release_version(described, splits),
                s2ag_releases(settings.lake, lake_tables.EXAMPLES),
            )
        lake.write_partition(
            settings.lake,
            lake_tables.SPLITS,
            lake_tables.split_schema(),
            ({"paper_id": paper_id, "split": split} for paper_id, split in sorted(split_of.items())),
        )
        lake.write_partition(settings.lake, lake_tables.STATISTICS, statistics_schema(), statistics.to_pylist())
        return dg.MaterializeResult(
            metadata={
                "folder": str(folder),
                "examples": dg.MetadataValue.json(counts),
                "partitions": len(lake_tables.example_partitions(settings.lake)),
                "table_1": dg.MetadataValue.md(markdown_table(statistics)),
            }
        )

    return sciqfs_release


_tables = [tables_asset(source) for source in SOURCES]
_examples = [examples_asset(source, tables) for source, tables in zip(SOURCES, _tables)]
sciqfs_release = release_asset(_examples)
dataset_assets = [*_tables, *_examples, sciqfs_release]
