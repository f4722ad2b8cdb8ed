"""Staging a release's papers and abstracts once, and the join of one full-text file with them."""

import re

import pyarrow.parquet as pq
import pytest
from s2ag_helpers import RELEASE, papers_row, real_records, s2ag_dump_root, write_lines

from citeworth_assets.lib import lake
from citeworth_assets.lib.read_issues import IssueLog
from citeworth_assets.lib.s2ag import layout, staging
from citeworth_assets.lib.s2ag.join import write_papers
from citeworth_assets.lib.s2ag.metadata import fields_of_study, split_name
from citeworth_assets.lib.s2ag.sources import find_source, full_text_sources, metadata_staged
from citeworth_assets.lib.s2orc.candidate_filter import split_candidates
from citeworth_assets.lib.s2orc.schema import ShardSource, paper_schema


def test_fields_count_external_mag_categories_only_by_default():
    value = [
        {"category": "Agricultural And Food Sciences", "source": "external"},
        {"category": "Computer Science", "source": "external"},
        {"category": "Medicine", "source": "s2-fos-model"},
        {"category": "Linguistics", "source": "s2-fos-model"},
    ]
    assert fields_of_study(value) == ["Computer Science"]
    assert fields_of_study(value, ("external", "s2-fos-model")) == ["Computer Science", "Medicine"]
    assert fields_of_study([{"category": "Law", "source": "external"}]) is None
    assert fields_of_study(None) is None


def test_author_names_split_as_the_2020_metadata():
    assert split_name("Raid D. Thanoon") == {"first": "Raid", "middle": ["D."], "last": "Thanoon", "suffix": ""}
    assert split_name("Grace Hopper Jr.") == {"first": "Grace", "middle": [], "last": "Hopper", "suffix": "Jr."}
    assert split_name("何祚庥") == {"first": "", "middle": [], "last": "何祚庥", "suffix": ""}


def test_layout_keys_are_stable_and_partition_safe(tmp_path, shared_data):
    dumps = s2ag_dump_root(tmp_path / "dumps", shared_data)
    (dumps / "s2ag" / RELEASE / "s2orc" / "part.gz.tmp").write_bytes(b"x")  # a download under way: ignored
    files = layout.discover_files(dumps)
    assert [f.key for f in files] == ["s2ag_2023_02_14_s2orc_20230214_070157_00041_s2orc_sample"]
    assert re.fullmatch("[a-z0-9_]+", files[0].key)
    assert {p.parent.name for p in files[0].metadata_files} == {"papers", "abstracts"}
    assert find_source(dumps, files[0].key) == files[0]
    with pytest.raises(FileNotFoundError, match="s2ag/<release>/s2orc"):
        find_source(dumps, "s2ag_nothing_here")
    assert layout.discover(dumps).without_papers == []
    assert full_text_sources(dumps, lake_root=tmp_path / "lake") == []  # waits until its metadata is staged


@pytest.fixture(scope="module")
def staged(tmp_path_factory, shared_data):
    root = tmp_path_factory.mktemp("s2ag_staging")
    records = real_records(shared_data)
    papers = [papers_row(r["corpusid"]) for r in records[:4]]  # the last full text has no papers row
    papers.append(papers_row(records[0]["corpusid"], fields=(("Medicine", "external"),), citations=0))  # a repeat
    dumps = s2ag_dump_root(root / "dumps", shared_data, papers)
    lake_root = root / "lake"
    log = IssueLog()
    result = staging.stage_all(lake_root, dumps, log)
    (file,) = layout.discover_files(dumps)
    joined = write_papers(lake_root, file, ShardSource(file.release, file.key, file.path), IssueLog())
    return records, lake_root, file, result, joined, log


def test_staged_tables_are_sorted_by_corpus_id_with_one_row_each(staged):
    records, lake_root, file, (result,), _, log = staged
    assert metadata_staged(lake_root, file)
    table = lake.read_partition(lake_root, staging.PAPERS, "2023_02_14", dimension="release")
    ids = table.column("corpusid").to_pylist()
    assert ids == sorted(ids) and len(ids) == len(set(ids)) == 100 + 4
    assert result.repeated == 1 and log.counts == {"duplicate_corpusid": 1}
    repeated = next(r for r in table.to_pylist() if r["corpusid"] == records[0]["corpusid"])
    assert repeated["mag_field_of_study"] == ["Medicine"]  # the later row of the repeated id wins
    folder = lake.partition_dir(lake_root, staging.PAPERS, "2023_02_14", "release")
    assert pq.ParquetFile(next(folder.glob("*.parquet"))).metadata.row_group(0).column(0).statistics.has_min_max


def test_each_paper_of_the_file_gets_its_metadata_by_corpus_id(staged):
    records, lake_root, file, _, joined, _ = staged
    papers = lake.read_partition(lake_root, "s2orc_papers", file.key)
    assert papers.schema == paper_schema()
    rows = {row["paper_id"]: row for row in papers.to_pylist()}
    assert list(rows) == [str(r["corpusid"]) for r in records]  # every full text, in file order
    assert (joined.papers, joined.with_papers_row) == (5, 4)
    first = rows["256867980"]
    assert first["title"].startswith("Paper 256867980\n") and first["authors"][0]["last"] == "Lovelace"
    assert (first["venue"], first["journal"], first["year"], first["doi"]) == (
        "Journal of Tests",
        "J. Tests",
        2021,
        "10.5555/256867980",
    )
    assert first["pmc_id"] == "9925312"  # not in the papers row: the full text's external id
    assert first["mag_field_of_study"] == ["Medicine"] and first["has_inbound_citations"] is False
    alone = rows["255785057"]  # no papers row: what the full text says
    assert alone["title"].startswith("Erratum to: MINE") and alone["mag_field_of_study"] is None
    assert alone["abstract"].startswith("Erratum") and joined.abstract_from_full_text == 0  # from abstracts
    candidates, rejected = split_candidates(papers)
    assert set(candidates.column("paper_id").to_pylist()) == {"256868338", "256868353", "255784916"}
    assert dict(zip(rejected.column("paper_id").to_pylist(), rejected.column("failed_criterion").to_pylist())) == {
        "256867980": "has_inbound_citations",
        "255785057": "mag_field_of_study",
    }


def test_a_release_without_papers_is_built_from_its_full_texts_and_reported(tmp_path, shared_data):
    dumps = tmp_path / "dumps"
    source = next((shared_data / "s2ag-2023" / "s2orc").glob("*.gz"))
    write_lines(dumps / "s2ag" / "r2" / "s2orc" / "a.gz", [b""], raw=True)
    (dumps / "s2ag" / "r2" / "s2orc" / "a.gz").write_bytes(source.read_bytes())
    assert layout.discover(dumps).without_papers == ["r2"]
    log = IssueLog()
    staging.stage_all(tmp_path / "lake", dumps, log)
    assert log.counts == {"missing_file": 2}
    (file,) = layout.discover_files(dumps)
    joined = write_papers(tmp_path / "lake", file, ShardSource(file.release, file.key, file.path), IssueLog())
    assert (joined.papers, joined.with_papers_row) == (5, 0)
