"""What the S2ORC domain owns: its lake tables (per shard) and the candidate filter's drop reasons."""

from citeworth_assets.lib.lake import SHARD_DIMENSION as SHARD
from citeworth_assets.lib.lake import LakeTable
from citeworth_assets.lib.s2orc.candidate_filter import REASONS, REJECTION_SCHEMA
from citeworth_assets.lib.s2orc.duplicates import DUPLICATE_SCHEMA
from citeworth_assets.lib.s2orc.records import PAPER_SCHEMA, PARAGRAPH_SCHEMA, READ_ISSUE_SCHEMA

LAKE_TABLES = (
    LakeTable("s2orc_papers", PAPER_SCHEMA, "s2orc_papers", SHARD),
    LakeTable("s2orc_metadata_issues", READ_ISSUE_SCHEMA, "s2orc_papers", SHARD),
    LakeTable("s2orc_candidate_papers", PAPER_SCHEMA, "s2orc_candidate_papers", SHARD),
    LakeTable("s2orc_paper_rejections", REJECTION_SCHEMA, "s2orc_paper_rejections", SHARD),
    LakeTable("s2orc_paragraphs", PARAGRAPH_SCHEMA, "s2orc_paragraphs", SHARD),
    LakeTable("s2orc_pdf_parse_issues", READ_ISSUE_SCHEMA, "s2orc_paragraphs", SHARD),
    LakeTable("s2orc_duplicate_papers", DUPLICATE_SCHEMA, "s2orc_duplicate_papers"),
)
DROP_REASONS = REASONS
# the steps whose filter runs tally these reasons in lake.filter_tallies (lib/filters.py): the candidate filter
# also turns arXiv papers away before CiteWorth's rules (citeworth_arxiv_cleaning)
FILTER_STEPS = ("s2orc_candidate_filter", "citeworth_arxiv_cleaning")
