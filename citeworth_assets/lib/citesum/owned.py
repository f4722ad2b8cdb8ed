"""What the CiteSum domain owns: its lake tables (candidates and drops per shard), dataset card and drop reasons."""

from citeworth_assets.lib.citesum import tables
from citeworth_assets.lib.citesum.abstractive import SCORES_SCHEMA, SCORES_TABLE
from citeworth_assets.lib.citesum.card import CARD
from citeworth_assets.lib.citesum.reasons import REASONS
from citeworth_assets.lib.lake import SHARD_DIMENSION, LakeTable

LAKE_TABLES = (
    LakeTable("citesum_cited_abstracts", tables.CITED_ABSTRACT_SCHEMA, "citesum_cited_abstracts"),
    LakeTable("citesum_candidates", tables.CANDIDATE_SCHEMA, "citesum_candidates", SHARD_DIMENSION),
    LakeTable("citesum_drops", tables.DROP_SCHEMA, "citesum_drops", SHARD_DIMENSION),
    LakeTable("citesum_dataset", tables.EXAMPLE_SCHEMA, "citesum_dataset"),
    LakeTable("citesum_statistics", tables.STATISTICS_SCHEMA, "citesum_dataset"),
    LakeTable("citesum_disciplines", tables.DISCIPLINE_SCHEMA, "citesum_dataset"),
    LakeTable("citesum_baselines", tables.BASELINE_SCHEMA, "citesum_baselines"),
    LakeTable(SCORES_TABLE, SCORES_SCHEMA, "citesum_abstractive_scores"),
)
DATASET_CARD = CARD
DROP_REASONS = REASONS
FILTER_STEPS = ("citesum_candidates",)  # the steps whose filter runs tally these reasons in lake.filter_tallies
