import subprocess
import sys
import textwrap

import duckdb
import pyarrow as pa

from citeworth_assets.lib import lake, warehouse

SCHEMA = pa.schema([("paper_id", pa.string()), ("n", pa.int64())])


def test_views_are_typed_before_data_and_follow_the_lake_after(tmp_path):
    db = tmp_path / "warehouse.duckdb"
    with warehouse.writing(db) as connection:
        warehouse.create_lake_view(connection, "s2orc.things", tmp_path / "lake", "things", SCHEMA)
    with warehouse.reading(db) as connection:
        assert connection.execute("SELECT count(*) FROM s2orc.things").fetchall() == [(0,)]
        assert [c[0] for c in connection.execute("DESCRIBE s2orc.things").fetchall()] == ["paper_id", "n"]
    lake.write_partition(tmp_path / "lake", "things", SCHEMA, ({"paper_id": str(i), "n": i} for i in range(4)), "a")
    with warehouse.writing(db) as connection:
        warehouse.create_lake_view(connection, "s2orc.things", tmp_path / "lake", "things", SCHEMA)
    lake.write_partition(tmp_path / "lake", "things", SCHEMA, ({"paper_id": "x", "n": 9} for _ in range(2)), "b")
    with warehouse.reading(db) as connection:  # a new partition shows up without rewriting the warehouse
        assert connection.execute("SELECT count(*), sum(n) FROM s2orc.things").fetchall() == [(6, 24)]


def test_a_failed_write_publishes_nothing(tmp_path):
    db = tmp_path / "warehouse.duckdb"
    with warehouse.writing(db) as connection:
        warehouse.create_relation(connection, "a.one", "SELECT 1 AS x", "table")
    try:
        with warehouse.writing(db) as connection:
            warehouse.create_relation(connection, "a.two", "SELECT 2 AS x")
            raise RuntimeError("crash")
    except RuntimeError:
        pass
    with warehouse.reading(db) as connection:
        names = {row[0] for row in connection.execute("SELECT table_name FROM information_schema.tables").fetchall()}
    assert names == {"one"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["warehouse.duckdb", "warehouse.duckdb.lock"]


def test_the_platform_writes_while_an_analyst_holds_the_warehouse_open(tmp_path):
    db = tmp_path / "warehouse.duckdb"
    with warehouse.writing(db) as connection:
        warehouse.create_relation(connection, "a.v", "SELECT 1 AS x", "table")
    analyst = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(f"""
            import duckdb, sys
            con = duckdb.connect({str(db)!r}, read_only=True)
            print(con.execute("SELECT x FROM a.v").fetchone()[0], flush=True)
            sys.stdin.readline()
            print(con.execute("SELECT x FROM a.v").fetchone()[0], flush=True)
        """),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert analyst.stdout.readline().strip() == "1"
        with warehouse.writing(db) as connection:  # would fail with a lock error on the shared file
            warehouse.create_relation(connection, "a.v", "SELECT 2 AS x", "table")
        analyst.stdin.write("\n")
        analyst.stdin.flush()
        assert analyst.stdout.readline().strip() == "1"  # the open connection keeps its snapshot
    finally:
        analyst.communicate(timeout=30)
    assert duckdb.connect(str(db), read_only=True).execute("SELECT x FROM a.v").fetchall() == [(2,)]
