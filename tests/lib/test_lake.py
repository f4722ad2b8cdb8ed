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


def test_a_lake_under_a_folder_with_a_quote_is_read_and_written(tmp_path):
    """Paths reach DuckDB as parameters (or, in a view's definition, as one escaped literal), never spliced raw."""
    import pyarrow as pa

    from citeworth_assets.lib.duplicates import write_duplicate_papers
    from citeworth_assets.lib.s2orc.schema import DUPLICATES
    from citeworth_assets.lib.warehouse import create_lake_view, first_row, writing

    root = tmp_path / "o'brien's lake"
    schema = pa.schema([("paper_id", pa.string()), ("release", pa.string()), ("shard", pa.string()),
                        ("source_file", pa.string()), ("line", pa.int64())])  # fmt: skip
    for shard in ("r_0", "r_1"):
        row = {"paper_id": "1", "release": "r", "shard": shard, "source_file": "m", "line": 1}
        lake.write_partition(root, "s2orc_papers", schema, [row], shard)
    assert write_duplicate_papers(root, DUPLICATES) == 2
    assert lake.sorted_rows(root)["s2orc_duplicate_papers"] == [
        ("1", "r", "r_0", "m", 1, True),
        ("1", "r", "r_1", "m", 1, False),
    ]
    with writing(tmp_path / "warehouse.duckdb") as connection:
        create_lake_view(connection, "lake.s2orc_papers", root, "s2orc_papers", schema)
        assert first_row(connection, "SELECT count(*) FROM lake.s2orc_papers")[0] == 2
