"""What the cite-worthiness models own: the model comparison (Table 4) and the cross-field matrix (Table 5)."""

from citeworth_assets.lib.lake import LakeTable
from citeworth_assets.lib.models.tables import comparison_schema, domain_schema

LAKE_TABLES = (
    LakeTable("citeworth_model_comparison", comparison_schema, "citeworth_model_comparison"),
    LakeTable("citeworth_domain_matrix", domain_schema, "citeworth_domain_matrix"),
)
