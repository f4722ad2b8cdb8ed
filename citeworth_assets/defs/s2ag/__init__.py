"""S2AG: staging the papers and abstracts of each release (the full-text files are partitions of the S2ORC shards)."""

import dagster as dg

from citeworth_assets.defs.s2ag.metadata import s2ag_metadata, s2ag_metadata_job, s2ag_metadata_sensor, staging_source

defs = dg.Definitions(assets=[s2ag_metadata], jobs=[s2ag_metadata_job], sensors=[s2ag_metadata_sensor])

sources = [staging_source]  # what `citeworth build` runs from the dump root before asking the graph
