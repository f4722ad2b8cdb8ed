"""Every full-text partition of ``s2orc_shards``: the 2020 shards and the S2AG full-text files, found by listing.

What the S2ORC sensor, ``citeworth build`` and the shard assets ask for, so that an S2AG file is one more shard.
An S2AG file whose release has ``papers``/``abstracts`` files waits until they are staged from those very files
(the staged record names them), so that its papers are never built against stale or missing metadata; a release
without them is built from the full texts alone and reported.
"""

from __future__ import annotations

from pathlib import Path

from citeworth_assets.lib.dump_root import find_by_key
from citeworth_assets.lib.s2ag import layout, staging
from citeworth_assets.lib.s2orc.shards import Shard, discover_shards

S2AG_PREFIX = "s2ag_"


def is_s2ag(key: str) -> bool:
    return key.startswith(S2AG_PREFIX)


def metadata_staged(lake_root: Path, file: layout.S2agFile) -> bool:
    """Whether the release's metadata files are staged as they are now (trivially so when it has none)."""
    if not file.metadata_files:
        return True
    return staging.staged_signature(lake_root, file.release) == staging.signature(list(file.metadata_files))


def full_text_sources(
    dumps: Path, settle_seconds: float = 0.0, lake_root: Path | None = None
) -> list[Shard | layout.S2agFile]:
    """The 2020 shards, then the S2AG files (with ``lake_root``: only those whose metadata is staged)."""
    files = layout.discover_files(dumps, settle_seconds)
    if lake_root is not None:
        files = [file for file in files if metadata_staged(lake_root, file)]
    return [*discover_shards(dumps, settle_seconds), *files]


def find_source(dumps: Path, key: str) -> Shard | layout.S2agFile:
    """The shard or S2AG file of a partition key; a clear error naming both layouts when it is in neither."""
    expected = (
        "<release>/full/metadata/metadata_<i>.jsonl.gz with <release>/full/pdf_parses/pdf_parses_<i>.jsonl.gz, "
        "or s2ag/<release>/s2orc/<file>.gz (s2orc_v2 likewise)"
    )
    return find_by_key(full_text_sources(dumps), key, "shard", Path(dumps), expected)
