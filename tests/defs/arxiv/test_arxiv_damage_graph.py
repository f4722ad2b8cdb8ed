"""Damaged dumps through the graph: a truncated tarball, a truncated gzip, a damaged OpenAlex part and the generated
damage cases (a .txt without markers, a marker whose uuid is not in refs.db, invalid UTF-8, MAG lines with too few
columns or a bad id) are counted in the lake and in asset metadata; every run succeeds and nothing else is lost."""

import gzip

import dagster as dg
import pytest
from arxiv_graph_helpers import build, latest_metadata, query

from citeworth_assets.samples.arxiv import write_unarxive_2020, write_unarxive_2022
from citeworth_assets.samples.mag import sample_works, write_mag_dump, write_openalex_snapshot

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("arxiv_damage")
    dumps, works = root / "dumps", sample_works(5, 30)
    write_unarxive_2020(dumps / "unarxive-2020" / "damaged", works, papers=8, seed=5)
    tarball, _ = write_unarxive_2020(root / "whole.tar.gz", works, papers=12, seed=6, damaged=False, tarball=True)
    data = tarball.read_bytes()
    (dumps / "unarxive-2020" / "cut.tar.gz").write_bytes(data[: len(data) // 3])
    jsonl, _ = write_unarxive_2022(root / "whole.jsonl.gz", works, papers=6, seed=5)
    data = jsonl.read_bytes()
    (dumps / "unarxive-2022").mkdir(parents=True)
    (dumps / "unarxive-2022" / "cut.jsonl.gz").write_bytes(data[: len(data) // 2])
    write_mag_dump(dumps / "mag", works)
    write_openalex_snapshot(dumps / "openalex", works, per_part=20)
    part = sorted((dumps / "openalex").rglob("part_*.gz"))[-1]
    part.write_bytes(part.read_bytes()[:-30])
    with dg.instance_for_test() as instance:
        settings, failed, _ = build(dumps, root / "data", instance)
        yield settings, failed, instance, dumps


def test_every_run_succeeds(built):
    _, failed, *_ = built
    assert failed == []


def test_damage_is_counted_in_the_lake_and_in_metadata(built):
    settings, _, instance, _ = built
    kinds = {
        (key, kind): n
        for key, kind, n in query(settings, "SELECT shard, kind, count(*) FROM arxiv.read_issues GROUP BY ALL")
    }
    # reading stops once looking for refs.db (it comes last) and once reading the papers
    assert (
        kinds[("unarxive_2020_cut", "truncated_tarball")] == 2 and kinds[("unarxive_2020_cut", "missing_refs_db")] == 1
    )
    assert (
        kinds.get(("unarxive_2022_cut", "truncated_gzip"), 0) + kinds.get(("unarxive_2022_cut", "truncated_line"), 0)
        >= 1
    )
    assert {
        ("unarxive_2020_damaged", k) for k in ("no_citation_markers", "marker_without_bibitem", "invalid_utf8")
    } <= set(kinds)
    meta = latest_metadata(instance, "arxiv_papers", "unarxive_2020_cut")
    assert meta["read_issues_by_kind"]["truncated_tarball"] == 2 and "truncated_tarball" in meta["first_read_issues"]
    catalogue = dict(query(settings, "SELECT kind, count(*) FROM mag.read_issues GROUP BY 1"))
    assert {"too_few_columns", "invalid_utf8", "bad_value"} <= set(catalogue)
    assert catalogue.get("truncated_gzip", 0) + catalogue.get("truncated_line", 0) >= 1
    assert latest_metadata(instance, "works")["read_issues"] == sum(catalogue.values())


def test_papers_before_the_damage_are_kept(built):
    settings, _, _, dumps = built
    papers = dict(
        query(
            settings,
            "SELECT source_file, count(*) FROM arxiv.papers WHERE release = 'unarxive-2020' AND source_file = 'cut.tar.gz' GROUP BY 1",
        )
    )
    assert 0 < papers["cut.tar.gz"] < 12
    whole = gzip.decompress((dumps.parent / "whole.jsonl.gz").read_bytes()).count(b"\n")
    cut = query(settings, "SELECT count(*) FROM arxiv.papers WHERE release = 'unarxive-2022'")[0][0]
    assert 0 < cut < whole
    assert query(settings, "SELECT count(*) FROM arxiv.papers WHERE source_file LIKE '%.txt'")[0][0] == 8
