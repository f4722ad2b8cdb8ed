"""Checks on the ROUGE-SciQFS examples: what §3.4-3.5 and the split promise of every example."""

import dagster as dg
import duckdb

from citeworth_assets.defs.sciqfs.assets import sciqfs_examples
from citeworth_assets.lib import lake
from citeworth_assets.lib.sciqfs.lake_tables import EXAMPLES
from citeworth_assets.resources import CiteworthSettings


def _count(citeworth: CiteworthSettings, where: str) -> tuple[int, int]:
    """(examples, examples matching ``where``) over the examples table."""
    path = lake.table_glob(citeworth.settings.lake, EXAMPLES)
    with duckdb.connect() as connection:
        return connection.execute(
            f"SELECT count(*), count(*) FILTER (WHERE {where}) FROM read_parquet('{path}')"
        ).fetchone()


@dg.asset_check(
    asset=sciqfs_examples,
    description="Every example has a citing sentence; labels are true exactly where a label source is.",
)
def labels_follow_their_sources(citeworth: CiteworthSettings) -> dg.AssetCheckResult:
    total, bad = _count(
        citeworth,
        "NOT list_contains(label_sources, 'citation') OR len(labels) <> len(sentences) "
        "OR labels <> list_transform(label_sources, lambda s: s IS NOT NULL)",
    )
    return dg.AssetCheckResult(passed=bad == 0, metadata={"examples": total, "failing": bad})


@dg.asset_check(asset=sciqfs_examples, description="No citing paper has examples in two splits.")
def splits_disjoint_by_citing_paper(citeworth: CiteworthSettings) -> dg.AssetCheckResult:
    path = lake.table_glob(citeworth.settings.lake, EXAMPLES)
    with duckdb.connect() as connection:
        shared = connection.execute(
            f"SELECT count(*) FROM (SELECT paper_id FROM read_parquet('{path}') GROUP BY paper_id HAVING count(DISTINCT split) > 1)"
        ).fetchone()[0]
    return dg.AssetCheckResult(passed=shared == 0, metadata={"papers_in_several_splits": shared})


sciqfs_checks = [labels_follow_their_sources, splits_disjoint_by_citing_paper]
