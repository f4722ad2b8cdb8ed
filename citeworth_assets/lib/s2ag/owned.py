"""What the S2AG domain owns: each release's staged papers and abstracts (the full texts go to the S2ORC tables)."""

from citeworth_assets.lib.lake import LakeTable
from citeworth_assets.lib.s2ag.metadata import staged_abstract_schema, staged_paper_schema
from citeworth_assets.lib.s2ag.staging import ABSTRACTS, PAPERS, RELEASE_DIMENSION

LAKE_TABLES = (
    LakeTable(PAPERS, staged_paper_schema, "s2ag_metadata", RELEASE_DIMENSION),
    LakeTable(ABSTRACTS, staged_abstract_schema, "s2ag_metadata", RELEASE_DIMENSION),
)
