"""What the S2AG domain owns: each release's staged papers and abstracts (the full texts go to the S2ORC tables)."""

from citeworth_assets.lib.lake import LakeTable
from citeworth_assets.lib.s2ag.metadata import STAGED_ABSTRACT_SCHEMA, STAGED_PAPER_SCHEMA
from citeworth_assets.lib.s2ag.staging import ABSTRACTS, PAPERS, RELEASE_DIMENSION

LAKE_TABLES = (
    LakeTable(PAPERS, STAGED_PAPER_SCHEMA, "s2ag_metadata", RELEASE_DIMENSION),
    LakeTable(ABSTRACTS, STAGED_ABSTRACT_SCHEMA, "s2ag_metadata", RELEASE_DIMENSION),
)
