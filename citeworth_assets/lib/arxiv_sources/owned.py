"""What the arXiv LaTeX sources domain owns: the outcome of every submission, per bulk source dump. (The papers it
converts are unarXive 2022 files under the data root, ingested into the arXiv domain's tables.)"""

from citeworth_assets.lib.arxiv_sources.outcomes import DIMENSION, OUTCOME_SCHEMA, OUTCOMES_TABLE
from citeworth_assets.lib.lake import LakeTable

LAKE_TABLES = (LakeTable(OUTCOMES_TABLE, OUTCOME_SCHEMA, OUTCOMES_TABLE, DIMENSION),)
