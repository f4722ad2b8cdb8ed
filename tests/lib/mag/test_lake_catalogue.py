"""The works catalogue built in DuckDB equals the streaming readers' rows, keeps the newest of duplicate versions, and
resolution against it decides as the in-memory catalogue does."""

import gzip
import json

import pyarrow.parquet as pq

from citeworth_assets.lib import lake
from citeworth_assets.lib.arxiv.catalogue_lookup import LakeCatalogue, resolve_in_lake
from citeworth_assets.lib.arxiv.resolution import Catalogue, resolve_all
from citeworth_assets.lib.arxiv.unarxive2020 import RefsDb, iter_references
from citeworth_assets.lib.duckdb_limits import DuckDbLimits
from citeworth_assets.lib.mag.catalogue import mag_works, openalex_works
from citeworth_assets.lib.mag.lake_catalogue import build_works, build_works_apart
from citeworth_assets.lib.mag.tables import arxiv_title_schema
from citeworth_assets.lib.read_issues import IssueLog
from citeworth_assets.samples.arxiv import write_unarxive_2020
from citeworth_assets.samples.mag import openalex_record, sample_works, write_mag_dump, write_openalex_snapshot

LIMITS = DuckDbLimits("256MB", threads=1)


def test_duckdb_catalogue_equals_the_readers_and_resolves_the_same(tmp_path):
    works = sample_works(5, 80)
    write_mag_dump(tmp_path / "mag", works)
    write_openalex_snapshot(tmp_path / "openalex", works, per_part=30)
    log = IssueLog()
    counts = build_works(tmp_path / "lake", tmp_path / "mag", tmp_path / "openalex", log, LIMITS)
    expected = [*mag_works(tmp_path / "mag", IssueLog()), *openalex_works(tmp_path / "openalex", IssueLog())]
    assert pq.read_table(lake.partition_dir(tmp_path / "lake", "works")).to_pylist() == expected
    assert counts["works"] == len(expected) and counts["duplicates"] == 0
    assert log.counts == {"too_few_columns": 1, "invalid_utf8": 1, "bad_value": 1}

    folder, _ = write_unarxive_2020(tmp_path / "papers", works, papers=12, seed=5)
    refs = RefsDb(folder / "refs.db")
    references = list(iter_references(refs, IssueLog()))
    refs.close()
    in_memory = list(resolve_all(references, Catalogue.from_works(expected)))
    lookup = LakeCatalogue(tmp_path / "lake", LIMITS)
    try:
        assert list(resolve_in_lake(references, lookup, batch_size=7)) == in_memory
    finally:
        lookup.close()
    assert sum(1 for r in in_memory if r["resolved_by"] == "title") > 10


def test_the_newest_version_of_a_duplicate_work_wins_and_is_counted(tmp_path):
    works = sample_works(3, 10)
    write_mag_dump(tmp_path / "mag", works, damaged=False)
    first = works[0]
    with open(tmp_path / "mag" / "Papers.txt", "a", encoding="utf-8") as papers:
        papers.write(f"{first.mag_id}\t1\t\tJournal\trenamed title\tRenamed title\t\t2001\n")
    write_openalex_snapshot(tmp_path / "openalex", works, per_part=100)  # updated_date=2023-01-01
    later = tmp_path / "openalex" / "works" / "updated_date=2024-05-01" / "part_000.gz"
    later.parent.mkdir(parents=True)
    with gzip.open(later, "wt", encoding="utf-8") as out:
        out.write(json.dumps({**openalex_record(works[1]), "title": "A newer title"}) + "\n")
    counts = build_works(tmp_path / "lake", tmp_path / "mag", tmp_path / "openalex", IssueLog(), LIMITS)
    kept = {w["work_id"]: w for w in pq.read_table(tmp_path / "lake" / "works").to_pylist()}
    assert counts == {"works": 2 * len(works), "duplicates": 2, "edges": 0}
    assert kept[f"mag:{first.mag_id}"]["title"] == "Renamed title"
    assert kept[f"mag:{first.mag_id}"]["authors"] == first.authors  # the authors file still joins
    assert kept[works[1].openalex_id]["title"] == "A newer title"
    duplicates = pq.read_table(tmp_path / "lake" / "work_duplicates").to_pylist()
    assert [(d["work_id"], d["versions"], d["title"], d["kept_title"]) for d in duplicates] == [
        (f"mag:{first.mag_id}", 2, first.title, "Renamed title"),
        (works[1].openalex_id, 2, works[1].title, "A newer title"),
    ]


def test_the_catalogue_built_in_a_process_of_its_own_is_the_same_and_reports_its_issues(tmp_path):
    works = sample_works(7, 20)
    write_mag_dump(tmp_path / "mag", works)
    write_openalex_snapshot(tmp_path / "openalex", works, per_part=30)
    here, apart = IssueLog(), IssueLog()
    assert build_works(tmp_path / "here", tmp_path / "mag", tmp_path / "openalex", here, LIMITS) == build_works_apart(
        tmp_path / "apart", tmp_path / "mag", tmp_path / "openalex", apart, LIMITS
    )
    assert (
        pq.read_table(tmp_path / "here" / "works").to_pylist()
        == pq.read_table(tmp_path / "apart" / "works").to_pylist()
    )
    assert apart.counts == here.counts and apart.counts and len(apart.issues) == len(here.issues)


def test_one_join_per_partition_decides_as_the_whole_catalogue_through_arxiv_titles(tmp_path):
    """arXiv ids whose work the catalogue lacks get their title from arXiv's metadata (the later row of an id wins),
    DOIs and titles through works; a partition of many batches decides as the in-memory catalogue, and leaves no
    staging behind."""
    works = sample_works(11, 60)
    write_mag_dump(tmp_path / "mag", works, damaged=False)
    build_works(tmp_path / "lake", tmp_path / "mag", None, IssueLog(), LIMITS)
    expected = list(mag_works(tmp_path / "mag", IssueLog()))
    cited = [w for w in works if w.arxiv_id][:6]
    titles = [("1001.00001", "Never catalogued"), *((w.arxiv_id, w.title) for w in cited)]
    titles += [(cited[0].arxiv_id, "A title arXiv corrected later")]
    lake.write_partition(
        tmp_path / "lake", "arxiv_titles", arxiv_title_schema(), [dict(zip(("arxiv_id", "title"), t)) for t in titles]
    )
    folder, _ = write_unarxive_2020(tmp_path / "papers", works, papers=15, seed=3)
    refs = RefsDb(folder / "refs.db")
    references = list(iter_references(refs, IssueLog()))
    refs.close()
    references += [
        {
            "ref_id": f"x{i}",
            "citing_paper_id": "p",
            "raw_string": f"{w.authors[0]}: arXiv:{w.arxiv_id}",
            "arxiv_ids": [w.arxiv_id],
            "dois": [],
        }
        for i, w in enumerate(cited)
    ]
    catalogue = Catalogue.from_works(expected)
    catalogue.add_arxiv_titles(titles)
    in_memory = list(resolve_all(references, catalogue))
    lookup = LakeCatalogue(tmp_path / "lake", LIMITS)
    try:
        assert list(resolve_in_lake(references, lookup, batch_size=4)) == in_memory
    finally:
        lookup.close()
    routes = {r["resolved_by"] for r in in_memory}
    assert {"arxiv_id", "title"} <= routes
    assert not [p for p in (tmp_path / "lake" / lake.STAGING).glob("resolution.*")]
