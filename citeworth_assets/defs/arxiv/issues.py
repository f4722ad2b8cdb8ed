"""Read issues of the arXiv and catalogue inputs: stored in the lake and summarised in asset metadata."""

from pathlib import Path

import dagster as dg

from citeworth_assets.lib import lake
from citeworth_assets.lib.arxiv.schemas import DUMP_FILE_DIMENSION as DIMENSION
from citeworth_assets.lib.jsonl import IssueLog
from citeworth_assets.lib.s2orc.records import READ_ISSUE_SCHEMA

SHOWN_ISSUES = 20


def relative_file(file: str | None, dumps: Path | None) -> str | None:
    """An issue's file as a path under the dump root (``openalex/works/updated_date=2024-01-01/part_000.gz``,
    ``unarxive-2020/x.tar.gz:papers/1701.00001.txt``): a base name alone is ambiguous between folders."""
    if not file:
        return None
    if dumps is not None:
        for root in dict.fromkeys((str(dumps), str(Path(dumps).resolve()))):
            if file.startswith(root.rstrip("/") + "/"):
                return file[len(root.rstrip("/")) + 1 :]
    return Path(file).name


def issue_metadata(
    lake_root: Path, table: str, release: str, key: str | None, log: IssueLog, dumps: Path | None = None
) -> dict:
    """Write the issues of one input as a lake partition (files named relative to ``dumps``); metadata that counts
    them and shows the first few."""
    rows = (
        {"release": release, "shard": key, **vars(issue), "file": relative_file(issue.file, dumps)}
        for issue in log.issues
    )
    lake.write_partition(lake_root, table, READ_ISSUE_SCHEMA, rows, key, DIMENSION)
    shown = "\n".join(f"- `{issue}`" for issue in log.issues[:SHOWN_ISSUES]) or "none"
    return {
        "read_issues": log.total,
        "read_issues_by_kind": dg.MetadataValue.json(dict(sorted(log.counts.items()))),
        "first_read_issues": dg.MetadataValue.md(shown),
    }
