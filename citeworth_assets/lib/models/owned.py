"""What the cite-worthiness models own: the model comparison (Table 4) and the cross-field matrix (Table 5)."""

from citeworth_assets.lib.lake import LakeTable
from citeworth_assets.lib.models.tables import COMPARISON_SCHEMA, DOMAIN_SCHEMA

LAKE_TABLES = (
    LakeTable("citeworth_model_comparison", COMPARISON_SCHEMA, "citeworth_model_comparison"),
    LakeTable("citeworth_domain_matrix", DOMAIN_SCHEMA, "citeworth_domain_matrix"),
)
