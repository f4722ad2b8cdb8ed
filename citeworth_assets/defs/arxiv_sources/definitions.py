"""arXiv LaTeX sources (Saier 2019 §4.2.3): bulk source dumps converted into unarXive 2022 papers, which the arXiv
domain ingests as dump files; the source sensor and job."""

import dagster as dg

from citeworth_assets.defs.arxiv_sources.assets import arxiv_source_conversion
from citeworth_assets.defs.arxiv_sources.sensors import arxiv_source_job, arxiv_source_sensor, source_dump_source

defs = dg.Definitions(assets=[arxiv_source_conversion], jobs=[arxiv_source_job], sensors=[arxiv_source_sensor])

sources = [source_dump_source]  # what `citeworth build` runs from the dump root before asking the graph
