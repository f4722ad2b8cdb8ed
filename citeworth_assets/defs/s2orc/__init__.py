"""S2ORC: shard assets (papers, candidate filter, paragraphs), the dump sensor and the shard job."""

import dagster as dg

from citeworth_assets.defs.s2orc.assets import shard_assets
from citeworth_assets.defs.s2orc.sensors import s2orc_dump_sensor, s2orc_shard_job

defs = dg.Definitions(assets=shard_assets, jobs=[s2orc_shard_job], sensors=[s2orc_dump_sensor])
