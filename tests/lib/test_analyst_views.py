"""The warehouse views an analyst sums and groups: totals apart from per-shard rows, unknown disciplines named,
a description on every view (also as the relation's comment)."""

from pathlib import Path

import duckdb

from citeworth_assets.lib import warehouse

SQL = Path(__file__).resolve().parents[2] / "dbt_like_sql"


def view(connection, schema: str, name: str) -> None:
    text = (SQL / schema / f"{name}.sql").read_text()
    warehouse.create_relation(connection, f"{schema}.{name}", text, description=text.splitlines()[0][2:].strip())


def test_candidate_filter_totals_are_their_own_view():
    with duckdb.connect() as db:
        db.execute("CREATE SCHEMA s2orc")
        db.execute("CREATE TABLE s2orc.papers AS SELECT range AS paper_id FROM range(10)")
        db.execute(
            "CREATE TABLE s2orc.paper_rejections AS SELECT * FROM (VALUES ('s_0', 'abstract'), ('s_0', 'abstract'), "
            "('s_1', 'abstract'), ('s_1', 'venue_or_id')) t(shard, failed_criterion)"
        )
        view(db, "s2orc", "candidate_filter_drops")
        view(db, "s2orc", "candidate_filter_totals")
        per_shard = db.execute("SELECT shard, failed_criterion, papers FROM s2orc.candidate_filter_drops").fetchall()
        assert per_shard == [("s_0", "abstract", 2), ("s_1", "abstract", 1), ("s_1", "venue_or_id", 1)]
        summed = dict(
            db.execute("SELECT failed_criterion, sum(papers) FROM s2orc.candidate_filter_drops GROUP BY 1").fetchall()
        )
        totals = db.execute(
            "SELECT failed_criterion, papers, share_of_papers FROM s2orc.candidate_filter_totals"
        ).fetchall()
        assert totals == [("abstract", 3, 0.3), ("venue_or_id", 1, 0.1)] and summed == {"abstract": 3, "venue_or_id": 1}
        comment = db.execute(
            "SELECT comment FROM duckdb_views() WHERE view_name = 'candidate_filter_totals'"
        ).fetchall()[0][0]
        assert comment.startswith("How many papers each criterion")


def test_unknown_disciplines_are_named():
    with duckdb.connect() as db:
        db.execute("CREATE SCHEMA lake")
        db.execute(
            "CREATE TABLE lake.citesum_dataset AS "
            "SELECT * FROM (VALUES ('a', 'Biology'), ('b', NULL)) t(cited_paper_id, discipline)"
        )
        db.execute(
            "CREATE TABLE lake.citesum_disciplines AS "
            "SELECT * FROM (VALUES ('Biology', 1), (NULL, 1)) t(discipline, cited_papers)"
        )
        view(db, "citesum", "examples")
        view(db, "citesum", "disciplines")
        assert db.execute("SELECT discipline FROM citesum.examples ORDER BY 1").fetchall() == [
            ("Biology",),
            ("unknown",),
        ]
        assert db.execute("SELECT count(*) FROM citesum.disciplines WHERE discipline = 'unknown'").fetchall() == [(1,)]


def test_every_view_has_a_description():
    for path in SQL.glob("*/*.sql"):
        first = path.read_text().splitlines()[0]
        assert first.startswith("-- ") and len(first) > 20, f"{path} has no description"
        assert "seeds/" not in path.read_text(), f"{path} cites a development path"


def test_sensors_and_jobs_say_what_they_do():
    from citeworth_assets.definitions import defs

    for sensor in defs.sensors:
        assert sensor.description, f"sensor {sensor.name} has no description (the UI says 'Standard sensor')"
    for job in defs.jobs:
        assert getattr(job, "description", None), f"job {job.name} has no description"
