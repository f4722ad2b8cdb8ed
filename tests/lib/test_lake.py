import pyarrow as pa
import pytest

from citeworth_assets.lib import lake

SCHEMA = pa.schema([("paper_id", pa.string()), ("n", pa.int64())])


def rows(n, tag="a"):
    return ({"paper_id": f"{tag}{i}", "n": i} for i in range(n))


def test_write_then_rerun_replaces_the_partition(tmp_path):
    assert lake.write_partition(tmp_path, "t", SCHEMA, rows(10), "s_0") == 10
    assert lake.write_partition(tmp_path, "t", SCHEMA, rows(3, "b"), "s_0") == 3
    table = lake.read_partition(tmp_path, "t", "s_0")
    assert table.column("paper_id").to_pylist() == ["b0", "b1", "b2"]
    assert list((tmp_path / "t").iterdir()) == [tmp_path / "t" / "shard=s_0"]
    assert not any((tmp_path / lake.STAGING).iterdir())


def test_a_failure_midway_leaves_the_previous_partition_untouched(tmp_path):
    lake.write_partition(tmp_path, "t", SCHEMA, rows(5), "s_0")

    def failing():
        yield from rows(20_000, "new")  # more than one batch is flushed before the failure
        raise RuntimeError("crash")

    with pytest.raises(RuntimeError):
        lake.write_partition(tmp_path, "t", SCHEMA, failing(), "s_0")
    assert lake.read_partition(tmp_path, "t", "s_0").num_rows == 5
    with pytest.raises(RuntimeError):
        lake.write_partition(tmp_path, "t", SCHEMA, failing(), "s_1")
    assert not (tmp_path / "t" / "shard=s_1").exists()
    assert not any((tmp_path / lake.STAGING).iterdir())


def test_rows_stream_back_in_batches(tmp_path):
    lake.write_partition(tmp_path, "t", SCHEMA, rows(12_345), "s_0")
    back = list(lake.iter_partition_rows(tmp_path, "t", "s_0", columns=["n"]))
    assert back[-1] == {"n": 12_344} and len(back) == 12_345


def test_reading_a_missing_partition_names_it(tmp_path):
    with pytest.raises(FileNotFoundError, match="shard=s_9"):
        lake.read_partition(tmp_path, "t", "s_9")
