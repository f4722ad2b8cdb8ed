"""Checks on the ROUGE-SciQFS release: what §3.4-3.5 and the split promise of every released example."""

import dagster as dg

from citeworth_assets.lib.duckdb_limits import bounded
from citeworth_assets.lib.sciqfs.statistics import SPLIT_ORDER
from citeworth_assets.resources import PlatformResource


def _release_files(citeworth: PlatformResource) -> list[str]:
    folder = citeworth.settings.export_dir("sciqfs")
    return [str(folder / f"{split}.parquet") for split in SPLIT_ORDER if (folder / f"{split}.parquet").exists()]


def _first_row(sql: str, files: list[str]):
    """The first row of ``sql`` over the release's split files (named ``release`` in it)."""
    with bounded() as connection:
        return connection.execute(sql.replace("release", "read_parquet(?::VARCHAR[])"), [files]).fetchone()


@dg.asset_check(
    asset="sciqfs_release",
    description="Every example has a citing sentence; labels are true exactly where a label source is.",
)
def labels_follow_their_sources(citeworth: PlatformResource) -> dg.AssetCheckResult:
    files = _release_files(citeworth)
    total, bad = (
        _first_row(
            "SELECT count(*), count(*) FILTER (WHERE NOT list_contains(label_sources, 'citation') "
            "OR len(labels) <> len(sentences) OR labels <> list_transform(label_sources, lambda s: s IS NOT NULL)) "
            "FROM release",
            files,
        )
        if files
        else (0, 0)
    )
    return dg.AssetCheckResult(passed=bad == 0, metadata={"examples": total, "failing": bad})


@dg.asset_check(asset="sciqfs_release", description="No citing paper has examples in two splits.")
def splits_disjoint_by_citing_paper(citeworth: PlatformResource) -> dg.AssetCheckResult:
    files = _release_files(citeworth)
    shared = (
        _first_row(
            "SELECT count(*) FROM (SELECT paper_id FROM release GROUP BY paper_id HAVING count(DISTINCT split) > 1)",
            files,
        )[0]
        if files
        else 0
    )
    return dg.AssetCheckResult(passed=shared == 0, metadata={"papers_in_several_splits": shared})


sciqfs_checks = [labels_follow_their_sources, splits_disjoint_by_citing_paper]
