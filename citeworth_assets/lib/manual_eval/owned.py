"""What the manual evaluation owns: the sample and the results of each rule set (CiteWorth §3.3)."""

from citeworth_assets.lib.citeworth.dataset import RULES_DIMENSION
from citeworth_assets.lib.lake import LakeTable
from citeworth_assets.lib.manual_eval.evaluation import result_schema, sample_schema

LAKE_TABLES = (
    LakeTable("citeworth_manual_eval_sample", sample_schema, "citeworth_manual_eval_sample", RULES_DIMENSION),
    LakeTable("citeworth_manual_eval_results", result_schema, "citeworth_manual_eval_results", RULES_DIMENSION),
)
