"""MAG and OpenAlex: the works catalogue, its citation edges and the level-0 fields of study (read by defs/arxiv),
the catalogue sensor and job."""

import dagster as dg

from citeworth_assets.defs.mag.assets import catalogue_assets
from citeworth_assets.defs.mag.sensors import catalogue_job, catalogue_sensor, catalogue_source

defs = dg.Definitions(assets=catalogue_assets, jobs=[catalogue_job], sensors=[catalogue_sensor])

sources = [catalogue_source]  # what `citeworth build` runs from the dump root before asking the graph
