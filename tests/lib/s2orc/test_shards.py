import os
import time

from citeworth_assets.lib.s2orc.shards import (
    PARTITION_KEY,
    discover_shards,
    partition_key,
)


def touch(path, age=3600, data=b"x"):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    then = time.time() - age
    os.utime(path, (then, then))


def layout(root, release, index, kinds=("metadata", "pdf_parses"), age=3600, suffix=".jsonl.gz"):
    for kind in kinds:
        touch(root / release / "full" / kind / f"{kind}_{index}{suffix}", age)


def test_partition_keys_use_only_lower_case_letters_digits_and_underscores():
    assert partition_key("20200705v1", 3) == "20200705v1_3"
    assert PARTITION_KEY.match(partition_key("S2ORC-2021.Release", 12))


def test_only_complete_and_settled_shards_are_ready(tmp_path):
    layout(tmp_path, "20200705v1", 0)
    layout(tmp_path, "20200705v1", 1, kinds=("metadata",))  # pdf_parses not there yet
    layout(tmp_path, "20200705v1", 2, age=1)  # still being written
    touch(tmp_path / "20200705v1" / "full" / "metadata" / "metadata_3.jsonl.gz.part")
    touch(tmp_path / "20200705v1" / "full" / "pdf_parses" / "pdf_parses_3.jsonl.gz")
    layout(tmp_path, "20210101", 0, suffix=".jsonl")  # a new release, plain JSON lines
    touch(tmp_path / "20200705v1" / "full" / "metadata" / "metadata_4.jsonl.gz", data=b"")
    touch(tmp_path / "20200705v1" / "full" / "pdf_parses" / "pdf_parses_4.jsonl.gz")
    ready = discover_shards(tmp_path, settle_seconds=60)
    assert [shard.key for shard in ready] == ["20200705v1_0", "20210101_0"]
    assert [shard.key for shard in discover_shards(tmp_path)] == ["20200705v1_0", "20200705v1_2", "20210101_0"]
