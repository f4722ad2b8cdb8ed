"""What the ROUGE-SciQFS domain owns: its lake tables, its dataset card and the reasons a pair gives no example."""

from citeworth_assets.lib.lake import LakeTable
from citeworth_assets.lib.sciqfs import lake_tables, statistics
from citeworth_assets.lib.sciqfs import tables as clean
from citeworth_assets.lib.sciqfs.card import CARD
from citeworth_assets.lib.sciqfs.reasons import REASONS

# Tables and examples are written per input partition, by one asset per source (S2ORC shard, unarXive dump file).
TABLES = ("sciqfs_s2orc_tables", "sciqfs_arxiv_tables")
EXAMPLES = ("sciqfs_s2orc_examples", "sciqfs_arxiv_examples")
BASELINES = ("sciqfs_ranking_baselines", "sciqfs_baselines")  # folders baselines=rankers / baselines=trained

LAKE_TABLES = (
    LakeTable("sciqfs_papers", clean.papers_schema, TABLES, lake_tables.DIMENSIONS),
    LakeTable("sciqfs_references", clean.references_schema, TABLES, lake_tables.DIMENSIONS),
    LakeTable("sciqfs_citations", clean.citations_schema, TABLES, lake_tables.DIMENSIONS),
    LakeTable("sciqfs_examples", lake_tables.example_schema, EXAMPLES, lake_tables.DIMENSIONS),
    LakeTable("sciqfs_splits", lake_tables.split_schema, "sciqfs_release"),
    LakeTable("sciqfs_statistics", statistics.statistics_schema, "sciqfs_release"),
    LakeTable("sciqfs_baselines", lake_tables.baseline_schema, BASELINES, lake_tables.BASELINES_DIMENSION),
    LakeTable(
        "sciqfs_baseline_examples", lake_tables.baseline_example_schema, BASELINES, lake_tables.BASELINES_DIMENSION
    ),
)
DATASET_CARD = CARD
DROP_REASONS = REASONS
FILTER_STEPS = EXAMPLES  # the steps whose filter runs tally these reasons in lake.filter_tallies
