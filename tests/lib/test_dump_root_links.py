"""Issue 24 item 5 for every reader of a dump folder: a file that is a symlink leading out of its folder and the dump
root is not read, and is reported as ``outside_dump_root`` naming it, while the other files are read (the unarXive
2020 case is in tests/lib/arxiv/test_damaged_input.py)."""

import gzip
import json

from citeworth_assets.lib.arxiv.dump_files import arxiv_metadata_files, discover_dump_files
from citeworth_assets.lib.arxiv_sources.source_dumps import discover_source_dumps
from citeworth_assets.lib.duckdb_limits import DuckDbLimits
from citeworth_assets.lib.identifiers import read_arxiv_metadata_titles
from citeworth_assets.lib.mag.catalogue import mag_work_references, mag_works, openalex_works
from citeworth_assets.lib.mag.lake_catalogue import build_works
from citeworth_assets.lib.read_issues import IssueLog
from citeworth_assets.lib.s2orc.shards import discover_shards, incomplete_shards
from citeworth_assets.samples.mag import openalex_record, sample_works, write_mag_dump, write_openalex_snapshot


def outside_issues(log: IssueLog) -> list[str]:
    return [issue.file for issue in log.issues if issue.kind == "outside_dump_root"]


def test_a_mag_table_linked_out_of_the_dump_root_is_not_read(tmp_path):
    works = sample_works(3, 12)
    mag = tmp_path / "dumps" / "mag"
    write_mag_dump(mag, works, [(works[0].mag_id, works[1].mag_id)], damaged=False)
    assert list(mag_work_references(mag, IssueLog()))  # the sample has citation edges
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (mag / "PaperReferences.txt").rename(elsewhere / "PaperReferences.txt")
    (mag / "PaperReferences.txt").symlink_to(elsewhere / "PaperReferences.txt")
    log = IssueLog()
    assert list(mag_work_references(mag, log)) == []
    assert len(list(mag_works(mag, log))) == len(works)  # the other tables are read
    assert outside_issues(log) == [str(mag / "PaperReferences.txt")]
    log = IssueLog()
    counts = build_works(tmp_path / "lake", mag, None, log, DuckDbLimits("256MB", threads=1))
    assert counts["works"] == len(works) and counts["edges"] == 0
    assert log.counts["outside_dump_root"] == 1


def test_an_openalex_part_linked_out_of_the_snapshot_is_not_read(tmp_path):
    works = sample_works(4, 10)
    snapshot = tmp_path / "dumps" / "openalex"
    write_openalex_snapshot(snapshot, works, per_part=100)
    secret = tmp_path / "elsewhere" / "part_000.gz"
    secret.parent.mkdir()
    with gzip.open(secret, "wt", encoding="utf-8") as out:
        out.write(json.dumps({**openalex_record(works[0]), "title": "SECRET title from outside"}) + "\n")
    later = snapshot / "works" / "updated_date=2024-05-01"
    later.mkdir()
    (later / "part_000.gz").symlink_to(secret)
    log = IssueLog()
    rows = list(openalex_works(snapshot, log))
    assert len(rows) == len(works) and all("SECRET" not in row["title"] for row in rows)
    assert outside_issues(log) == [str(later / "part_000.gz")]


def test_an_arxiv_metadata_file_linked_out_of_the_dump_root_is_not_read(tmp_path):
    dumps = tmp_path / "dumps"
    folder = dumps / "arxiv-metadata"
    folder.mkdir(parents=True)
    (folder / "a.jsonl").write_text(json.dumps({"id": "1701.00001", "title": "Inside"}) + "\n")
    secret = tmp_path / "secret.jsonl"
    secret.write_text(json.dumps({"id": "1701.00002", "title": "SECRET"}) + "\n")
    (folder / "b.jsonl").symlink_to(secret)
    (dumps / "shared.jsonl").write_text(json.dumps({"id": "1701.00003", "title": "Shared"}) + "\n")
    (folder / "c.jsonl").symlink_to(dumps / "shared.jsonl")  # a link inside the dump root is read
    log = IssueLog()
    titles = [title for path in arxiv_metadata_files(dumps, log) for _, title in read_arxiv_metadata_titles(path, log)]
    assert titles == ["Inside", "Shared"]
    assert outside_issues(log) == [str(folder / "b.jsonl")]


def write_shard(folder, index: int) -> None:
    for kind in ("metadata", "pdf_parses"):
        path = folder / kind / f"{kind}_{index}.jsonl.gz"
        path.parent.mkdir(parents=True, exist_ok=True)
        with gzip.open(path, "wt") as out:
            out.write(json.dumps({"paper_id": str(index)}) + "\n")


def test_an_s2orc_shard_file_linked_out_of_the_dump_root_is_not_read_and_reported(tmp_path):
    dumps = tmp_path / "dumps"
    full = dumps / "20200705v1" / "full"
    write_shard(full, 0)
    write_shard(tmp_path / "elsewhere", 1)
    write_shard(full, 1)
    (full / "metadata" / "metadata_1.jsonl.gz").unlink()
    (full / "metadata" / "metadata_1.jsonl.gz").symlink_to(tmp_path / "elsewhere" / "metadata" / "metadata_1.jsonl.gz")
    assert [shard.key for shard in discover_shards(dumps)] == ["20200705v1_0"]
    (problem,) = incomplete_shards(dumps)
    assert problem.key == "20200705v1_1"
    assert (
        problem.problem.startswith("metadata_1.jsonl.gz is a link to ") and "outside the dump root" in problem.problem
    )
    assert str(tmp_path / "elsewhere") in problem.problem
    # a release folder that is itself a link (a dump root assembled from links) is read
    (dumps / "linked").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    (tmp_path / "elsewhere" / "full").mkdir()
    write_shard(tmp_path / "elsewhere" / "full", 2)
    assert [shard.key for shard in discover_shards(dumps)] == ["20200705v1_0", "linked_2"]


def test_a_latex_source_dump_linked_out_of_the_dump_root_is_left_out_and_reported(tmp_path):
    dumps = tmp_path / "dumps"
    folder = dumps / "arxiv-src"
    folder.mkdir(parents=True)
    (folder / "arXiv_src_2101_001.tar").write_bytes(b"\0" * 1024)
    secret = tmp_path / "arXiv_src_2101_002.tar"
    secret.write_bytes(b"\0" * 1024)
    (folder / "arXiv_src_2101_002.tar").symlink_to(secret)
    log = IssueLog()
    found = discover_source_dumps(dumps, log=log)
    assert [source.key for source in found] == ["arxiv_src_2101_001"]
    assert outside_issues(log) == [str(folder / "arXiv_src_2101_002.tar")]


def test_a_unarxive_2022_dump_file_that_is_itself_a_link_is_read(tmp_path):
    """A 2022 file is a dump of its own, like a 2020 folder: a link to it (a dump root assembled from links, as the
    real-sample graph tests build) is read; there is no file inside it that could lead elsewhere."""
    dumps = tmp_path / "dumps"
    (dumps / "unarxive-2022").mkdir(parents=True)
    elsewhere = tmp_path / "elsewhere.jsonl"
    elsewhere.write_text(json.dumps({"paper_id": "2201.00001"}) + "\n")
    (dumps / "unarxive-2022" / "linked.jsonl").symlink_to(elsewhere)
    assert [dump.key for dump in discover_dump_files(dumps)] == ["unarxive_2022_linked"]
