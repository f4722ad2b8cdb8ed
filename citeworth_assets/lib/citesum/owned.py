"""What the CiteSum domain owns: its lake tables (candidates and drops per shard), dataset card and drop reasons."""

from citeworth_assets.lib.citesum import tables
from citeworth_assets.lib.citesum.abstractive import SCORES_TABLE, scores_schema
from citeworth_assets.lib.citesum.card import CARD
from citeworth_assets.lib.citesum.reasons import REASONS
from citeworth_assets.lib.lake import SHARD_DIMENSION, LakeTable

LAKE_TABLES = (
    LakeTable("citesum_cited_abstracts", tables.cited_abstract_schema, "citesum_cited_abstracts"),
    LakeTable("citesum_candidates", tables.candidate_schema, "citesum_candidates", SHARD_DIMENSION),
    LakeTable("citesum_drops", tables.drop_schema, "citesum_drops", SHARD_DIMENSION),
    LakeTable("citesum_dataset", tables.example_schema, "citesum_dataset"),
    LakeTable("citesum_statistics", tables.statistics_schema, "citesum_dataset"),
    LakeTable("citesum_disciplines", tables.discipline_schema, "citesum_dataset"),
    LakeTable("citesum_baselines", tables.baseline_schema, "citesum_baselines"),
    LakeTable(SCORES_TABLE, scores_schema, "citesum_abstractive_scores"),
)
DATASET_CARD = CARD
DROP_REASONS = REASONS
FILTER_STEPS = ("citesum_candidates",)  # the steps whose filter runs tally these reasons in lake.filter_tallies
