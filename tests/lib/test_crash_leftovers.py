"""Defect 11 of issue 10: crash leftovers are cleaned, exports are staged out of sight, a swap is never unreadable."""

import os
import time

import pyarrow as pa

from citeworth_assets.lib import lake, warehouse

SCHEMA = pa.schema([("x", pa.int64())])


def age(path, seconds):
    then = time.time() - seconds
    for child in [path, *path.rglob("*")] if path.is_dir() else [path]:
        os.utime(child, (then, then))


def test_stale_staging_is_removed_and_a_fresh_one_kept(tmp_path):
    stub = tmp_path / "_staging" / "papers.s_0.dead"
    stub.mkdir(parents=True)
    (stub / "part-0.parquet").write_bytes(b"PAR1 half")
    age(stub, 7200)
    fresh = tmp_path / "_staging" / "papers.s_1.live"
    fresh.mkdir()
    assert lake.clean_stale_staging(tmp_path) == [f"removed {stub}"]
    assert not stub.exists() and fresh.exists()


def test_a_partition_retired_by_a_crashed_publish_is_restored(tmp_path):
    lake.write_partition(tmp_path, "t", SCHEMA, [{"x": 1}], "k")
    target = lake.partition_dir(tmp_path, "t", "k")
    # A publish that renamed the old partition aside and crashed before moving the new one in:
    (target / lake.RETIRED_FROM).write_text(str(target))
    retired = tmp_path / "_staging" / "t.k.abc.retired"
    retired.parent.mkdir(parents=True, exist_ok=True)
    target.rename(retired)
    age(retired, 7200)
    assert lake.clean_stale_staging(tmp_path) == [f"restored {target}"]
    assert lake.read_partition(tmp_path, "t", "k").to_pylist() == [{"x": 1}]


def test_publish_swaps_so_that_the_partition_is_always_there(tmp_path, monkeypatch):
    lake.write_partition(tmp_path, "t", SCHEMA, [{"x": 1}], "k")
    target = lake.partition_dir(tmp_path, "t", "k")
    seen = []
    real_rmtree = lake.shutil.rmtree

    def watching_rmtree(path, *args, **kwargs):  # between the swap and the cleanup, the partition must be readable
        seen.append(lake.read_partition(tmp_path, "t", "k").to_pylist())
        return real_rmtree(path, *args, **kwargs)

    monkeypatch.setattr(lake.shutil, "rmtree", watching_rmtree)
    renames = []
    real_rename = type(target).rename
    monkeypatch.setattr(type(target), "rename", lambda self, to: (renames.append(self), real_rename(self, to))[1])
    lake.write_partition(tmp_path, "t", SCHEMA, [{"x": 2}], "k")
    assert lake.read_partition(tmp_path, "t", "k").to_pylist() == [{"x": 2}]
    assert target not in renames  # the live partition is never renamed away (the swap is one exchange)
    assert seen and seen[0] == [{"x": 2}]


def test_exports_are_staged_where_no_glob_of_final_names_sees_them(tmp_path):
    exports = tmp_path / "exports"
    old_crash = exports / ".citesum.0123456789abcdef0123456789abcdef"
    old_crash.mkdir(parents=True)
    (old_crash / "train.jsonl").write_text("{half")
    age(old_crash, 7200)
    with lake.replaced_folder(exports / "citesum") as staging:
        (staging / "train.jsonl").write_text("{}\n")
        assert [p.name for p in exports.glob("*/train.jsonl")] == []  # the half file of the crash is gone too
        assert list(exports.glob("*/*/train.jsonl")) == [staging / "train.jsonl"]  # not at the final depth
    assert [str(p.relative_to(exports)) for p in exports.glob("*/train.jsonl")] == ["citesum/train.jsonl"]


def write(target, sql: str) -> None:
    with warehouse.writing(target) as connection:
        connection.execute(sql)


def test_stale_warehouse_drafts_are_removed_by_the_next_writer(tmp_path):
    target = tmp_path / "warehouse.duckdb"
    draft = tmp_path / ".warehouse.duckdb.dead.draft"
    draft.write_bytes(b"x")
    (tmp_path / ".warehouse.duckdb.dead.draft.wal").write_bytes(b"x")
    write(target, "CREATE TABLE t AS SELECT 1 AS x")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["warehouse.duckdb", "warehouse.duckdb.lock"]


def test_a_build_publishes_the_warehouse_whole_or_not_at_all(tmp_path):
    target = tmp_path / "warehouse.duckdb"
    with warehouse.published_whole(target):
        write(target, "CREATE SCHEMA s2orc; CREATE TABLE s2orc.papers AS SELECT 1 AS x")
        assert not target.exists()  # a kill here leaves no warehouse with the s2orc schema only
        write(target, "CREATE SCHEMA citesum; CREATE TABLE citesum.examples AS SELECT 2 AS x")
    with warehouse.reading(target) as connection:
        assert connection.execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema IN ('s2orc', 'citesum')"
        ).fetchone() == (2,)
    before = target.read_bytes()
    try:
        with warehouse.published_whole(target):
            write(target, "DROP TABLE s2orc.papers")
            raise RuntimeError("killed half-way")
    except RuntimeError:
        pass
    assert target.read_bytes() == before
    with warehouse.published_whole(target) as build:
        write(target, "DROP TABLE s2orc.papers")
        build.complete = False  # a failed asset: keep the old warehouse
    assert target.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["warehouse.duckdb", "warehouse.duckdb.lock"]


def test_checks_inside_a_build_read_what_the_build_wrote(tmp_path):
    target = tmp_path / "warehouse.duckdb"
    with warehouse.published_whole(target):
        write(target, "CREATE TABLE t AS SELECT 1 AS x")
        with warehouse.reading(target) as connection:
            assert connection.execute("SELECT x FROM t").fetchall() == [(1,)]
