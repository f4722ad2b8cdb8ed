"""Read issues in an asset's result: stored as a lake partition, counted and shown in the metadata (one helper for
every domain that reads inputs)."""

from pathlib import Path

import dagster as dg

from citeworth_assets.lib import lake
from citeworth_assets.lib.read_issues import IssueLog, first_issues, issue_rows, read_issue_schema


def read_issue_metadata(
    lake_root: Path,
    table: str,
    log: IssueLog,
    release: str,
    key: str | None = None,
    dimension: str = lake.SHARD_DIMENSION,
    dumps: Path | None = None,
) -> dict:
    """Write the issues of one input as partition ``key`` of ``table`` (files named relative to ``dumps``, else by
    base name); metadata that counts them by kind and shows the first few."""
    lake.write_partition(
        lake_root, table, read_issue_schema(), issue_rows(log.issues, release, key, dumps), key, dimension
    )
    return {
        "read_issues": log.total,
        "read_issues_by_kind": dg.MetadataValue.json(dict(sorted(log.counts.items()))),
        "first_read_issues": dg.MetadataValue.md(first_issues(log)),
    }
