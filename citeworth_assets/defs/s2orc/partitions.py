"""S2ORC shards as dynamic partitions, added by the dump sensor or by ``citeworth build``."""

import dagster as dg

s2orc_shards = dg.DynamicPartitionsDefinition(name="s2orc_shards")
