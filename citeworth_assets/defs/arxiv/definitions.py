"""arXiv (unarXive 2020 and 2022+): per-dump-file ingestion, reference resolution, citation contexts, the context
export, the dump sensors and jobs. The works catalogue they resolve against is in ``defs/mag``."""

import dagster as dg

from citeworth_assets.defs.arxiv.assets import file_assets
from citeworth_assets.defs.arxiv.export import arxiv_context_export, arxiv_duplicate_papers
from citeworth_assets.defs.arxiv.fields import arxiv_field_papers
from citeworth_assets.defs.arxiv.sensors import arxiv_export_job, arxiv_file_job, arxiv_sensors, dump_file_source

arxiv_warehouse_job = dg.define_asset_job(
    "arxiv_warehouse_job",
    selection=dg.AssetSelection.key_prefixes(["arxiv"], ["mag"]),
    description="Refresh the arxiv.* and mag.* warehouse views (the whole warehouse_job refreshes them too).",
)

arxiv_field_job = dg.define_asset_job(
    "arxiv_field_job",
    selection=dg.AssetSelection.assets(arxiv_field_papers),
    description="Gather the arXiv papers of one MAG level-0 field (run per field partition after the dump files).",
)

defs = dg.Definitions(
    assets=[*file_assets, arxiv_duplicate_papers, arxiv_context_export, arxiv_field_papers],
    jobs=[arxiv_file_job, arxiv_export_job, arxiv_field_job, arxiv_warehouse_job],
    sensors=arxiv_sensors,
)

sources = [dump_file_source]  # what `citeworth build` runs from the dump root before asking the graph
