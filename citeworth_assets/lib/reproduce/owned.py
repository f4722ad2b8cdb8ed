"""What the reproduced tables own: the lake table of every published cell beside the build's, which the warehouse
view ``platform.paper_tables`` reads."""

from citeworth_assets.lib.lake import LakeTable
from citeworth_assets.lib.reproduce.pairing import pair_schema

PAPER_TABLES = "paper_tables"
LAKE_TABLES = (LakeTable(PAPER_TABLES, pair_schema, PAPER_TABLES),)
