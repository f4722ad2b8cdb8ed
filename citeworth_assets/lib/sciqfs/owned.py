"""What the ROUGE-SciQFS domain owns: its lake tables, its dataset card and the reasons a pair gives no example."""

from citeworth_assets.lib.lake import LakeTable
from citeworth_assets.lib.sciqfs import lake_tables, statistics
from citeworth_assets.lib.sciqfs import tables as clean
from citeworth_assets.lib.sciqfs.card import CARD
from citeworth_assets.lib.sciqfs.reasons import REASONS

LAKE_TABLES = (
    LakeTable("sciqfs_papers", clean.PAPERS_SCHEMA, "sciqfs_tables"),
    LakeTable("sciqfs_references", clean.REFERENCES_SCHEMA, "sciqfs_tables"),
    LakeTable("sciqfs_citations", clean.CITATIONS_SCHEMA, "sciqfs_tables"),
    LakeTable("sciqfs_examples", lake_tables.EXAMPLE_SCHEMA, "sciqfs_examples"),
    LakeTable("sciqfs_statistics", statistics.STATISTICS_SCHEMA, "sciqfs_examples"),
    LakeTable("sciqfs_baselines", lake_tables.BASELINE_SCHEMA, "sciqfs_baselines"),
    LakeTable("sciqfs_baseline_examples", lake_tables.BASELINE_EXAMPLE_SCHEMA, "sciqfs_baselines"),
)
DATASET_CARD = CARD
DROP_REASONS = REASONS  # counted in the examples asset's metadata; no lake table holds them
