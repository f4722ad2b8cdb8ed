"""What the S2ORC domain owns: its lake tables (per shard) and the candidate filter's drop reasons."""

from citeworth_assets.lib.lake import SHARD_DIMENSION as SHARD
from citeworth_assets.lib.lake import LakeTable
from citeworth_assets.lib.read_issues import read_issue_schema
from citeworth_assets.lib.s2orc.candidate_filter import REASONS, rejection_schema
from citeworth_assets.lib.s2orc.records import paper_schema, paragraph_schema
from citeworth_assets.lib.s2orc.schema import DUPLICATES

LAKE_TABLES = (
    LakeTable("s2orc_papers", paper_schema, "s2orc_papers", SHARD),
    LakeTable("s2orc_metadata_issues", read_issue_schema, "s2orc_papers", SHARD),
    LakeTable("s2orc_candidate_papers", paper_schema, "s2orc_candidate_papers", SHARD),
    LakeTable("s2orc_paper_rejections", rejection_schema, "s2orc_paper_rejections", SHARD),
    LakeTable("s2orc_paragraphs", paragraph_schema, "s2orc_paragraphs", SHARD),
    LakeTable("s2orc_pdf_parse_issues", read_issue_schema, "s2orc_paragraphs", SHARD),
    LakeTable(DUPLICATES.table, lambda: DUPLICATES.schema, "s2orc_duplicate_papers"),
)
DROP_REASONS = REASONS
# the steps whose filter runs tally these reasons in lake.filter_tallies (lib/filters.py): the candidate filter
# also turns arXiv papers away before CiteWorth's rules (citeworth_arxiv_cleaning)
FILTER_STEPS = ("s2orc_candidate_filter", "citeworth_arxiv_cleaning")
