"""What the arXiv LaTeX sources domain owns: the outcome of every submission, per bulk source dump. (The papers it
converts are unarXive 2022 files under the data root, ingested into the arXiv domain's tables.)"""

from citeworth_assets.lib.arxiv_sources.outcomes import DIMENSION, OUTCOMES_TABLE, outcome_schema
from citeworth_assets.lib.lake import LakeTable

LAKE_TABLES = (LakeTable(OUTCOMES_TABLE, outcome_schema, OUTCOMES_TABLE, DIMENSION),)
