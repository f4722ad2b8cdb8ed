"""What the CiteWorth domain owns: its lake tables (per shard, per rule set), its dataset card and its drop reasons."""

from citeworth_assets.lib.citeworth import dataset, quality
from citeworth_assets.lib.citeworth.card import CARD
from citeworth_assets.lib.citeworth.partition import ARXIV_FILE_DIMENSION, paragraph_schema, rejection_schema
from citeworth_assets.lib.citeworth.reasons import REASONS
from citeworth_assets.lib.lake import SHARD_DIMENSION, LakeTable

LAKE_TABLES = (
    # partition keys are <rule set>.<shard>, so rule sets coexist
    LakeTable("citeworth_paragraphs", paragraph_schema, "citeworth_paragraphs", SHARD_DIMENSION),
    LakeTable("citeworth_rejections", rejection_schema, "citeworth_rejections", SHARD_DIMENSION),
    # keys <rule set>.<arXiv dump file>: unarXive 2022 papers through the same rule set
    LakeTable("citeworth_arxiv_paragraphs", paragraph_schema, "citeworth_arxiv_paragraphs", ARXIV_FILE_DIMENSION),
    LakeTable("citeworth_arxiv_rejections", rejection_schema, "citeworth_arxiv_rejections", ARXIV_FILE_DIMENSION),
    LakeTable("citeworth_dataset", dataset.dataset_schema, "citeworth_dataset", dataset.RULES_DIMENSION),
    LakeTable("citeworth_statistics", dataset.statistics_schema, "citeworth_statistics", dataset.RULES_DIMENSION),
    LakeTable("citeworth_rule_comparison", quality.comparison_schema, "citeworth_rule_comparison"),
)
DATASET_CARD = CARD
DROP_REASONS = REASONS
# the steps whose filter runs tally these reasons in lake.filter_tallies (lib/filters.py)
FILTER_STEPS = ("citeworth_cleaning", "citeworth_arxiv_cleaning")
