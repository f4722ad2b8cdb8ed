"""arXiv papers per MAG level-0 field, in the static field partitions every source shares; the query is
:mod:`citeworth_assets.lib.arxiv.field_papers`."""

import dagster as dg

from citeworth_assets.defs.automation import follows_some_sources
from citeworth_assets.defs.fields import mag_fields
from citeworth_assets.lib import lake
from citeworth_assets.lib.arxiv.field_papers import one_field_query
from citeworth_assets.lib.fields import FIELD_DIMENSION
from citeworth_assets.resources import PlatformResource


@dg.asset(
    partitions_def=mag_fields,
    deps=[dg.AssetDep("arxiv_papers", partition_mapping=dg.AllPartitionMapping()), "works"],
    group_name="arxiv",
    kinds={"parquet"},
    automation_condition=follows_some_sources(dg.AssetSelection.assets("works")),  # fields fall back on disciplines
    backfill_policy=dg.BackfillPolicy.single_run(),  # every field in one run: each is a quick query over the lake
    description="The arXiv papers of one MAG level-0 field (static field partitions): fields of the paper's catalogue "
    "work, else unarXive 2022's discipline as a MAG field (field_source says which); a paper with several fields is "
    "in each.",
)
def arxiv_field_papers(context: dg.AssetExecutionContext, citeworth: PlatformResource) -> dg.MaterializeResult:
    settings = citeworth.settings
    if not lake.has_data(settings.lake, "arxiv_papers"):
        raise dg.Failure("no arXiv papers in the lake yet: materialize arxiv_papers for a dump file first")
    papers = {
        field: lake.write_partition_from_query(
            settings.lake, "arxiv_field_papers", *one_field_query(settings.lake, field), field, FIELD_DIMENSION
        )
        for field in context.partition_keys
    }
    return dg.MaterializeResult(metadata={"papers_by_field": papers})
