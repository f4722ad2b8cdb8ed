"""arXiv's bulk LaTeX source dumps (``arXiv_src_YYMM_NNN.tar``) as dynamic partitions, added by the source sensor or
by ``citeworth build``."""

import dagster as dg

arxiv_source_dumps = dg.DynamicPartitionsDefinition(name="arxiv_source_dumps")
