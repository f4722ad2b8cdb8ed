"""What citation recommendation owns: the evaluation data set's tables and the results, per data set name."""

from citeworth_assets.lib.citrec import tables
from citeworth_assets.lib.lake import LakeTable

LAKE_TABLES = (
    LakeTable("citrec_contexts", tables.context_schema, "citrec_dataset", tables.DIMENSION),
    LakeTable("citrec_candidates", tables.candidate_schema, "citrec_dataset", tables.DIMENSION),
    LakeTable("citrec_dataset_statistics", tables.statistics_schema, "citrec_dataset", tables.DIMENSION),
    LakeTable("citrec_results", tables.result_schema, "citrec_evaluation", tables.DIMENSION),
)
