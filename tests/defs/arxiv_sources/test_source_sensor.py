"""The source sensor: one partition and run per bulk source tar under the dump root, nothing for other files."""

import dagster as dg

from citeworth_assets.defs.arxiv_sources.sensors import arxiv_source_sensor
from citeworth_assets.lib.arxiv_sources.source_dumps import discover_source_dumps, find_source_dump
from citeworth_assets.resources import PlatformResource


def test_the_sensor_adds_a_partition_per_source_tar(tmp_path):
    (tmp_path / "arxiv-src").mkdir()
    (tmp_path / "arxiv-src" / "arXiv_src_2101_001.tar").write_bytes(b"x" * 10)
    (tmp_path / "arXiv_src_2102_003.tar").write_bytes(b"x" * 10)
    (tmp_path / "arxiv-src" / "notes.tar").write_bytes(b"x")
    assert [d.key for d in discover_source_dumps(tmp_path)] == ["arxiv_src_2101_001", "arxiv_src_2102_003"]
    assert find_source_dump(tmp_path, "arxiv_src_2102_003").path.parent == tmp_path
    settings = PlatformResource(dumps=str(tmp_path), data=str(tmp_path / "data"), shard_settle_seconds=0)
    with dg.instance_for_test() as instance:
        context = dg.build_sensor_context(instance=instance, resources={"citeworth": settings})
        result = arxiv_source_sensor(context)
        assert sorted(r.partition_key for r in result.run_requests) == ["arxiv_src_2101_001", "arxiv_src_2102_003"]
        again = arxiv_source_sensor(
            dg.build_sensor_context(instance=instance, cursor=result.cursor, resources={"citeworth": settings})
        )
        assert isinstance(again, dg.SkipReason)
