"""Damaged dumps through the graph: a truncated tarball, a truncated gzip, a damaged OpenAlex part and the generated
damage cases (a .txt without markers, a marker whose uuid is not in refs.db, invalid UTF-8, MAG lines with too few
columns or a bad id) are counted in the lake and in asset metadata; every run succeeds and nothing else is lost.

Issue 24 adds, in the same build: NUL, U+241E, control characters, invalid UTF-8 and lone surrogates in unarXive 2022
paper text, two file names that normalise to one partition key (holding the same papers: each paper kept once), a
symlink out of the dump root and a refs.db that is not SQLite. Issue 33: a paper repeated within one file, and every
view counting a paper of several files once."""

import gzip
import json

import duckdb
import pytest
from arxiv_graph_helpers import latest_metadata, query

from citeworth_assets.lib import lake
from citeworth_assets.lib.arxiv.context_csv import context_csv_line
from citeworth_assets.samples.arxiv import write_unarxive_2020, write_unarxive_2022
from citeworth_assets.samples.mag import sample_works, write_mag_dump, write_openalex_snapshot

pytestmark = pytest.mark.slow


NASTY = {0: "NUL\u0000here", 1: "sep\u241efield\u241flist", 2: "esc\u001b\u0085\u2028ctl"}


def write_issue_24_damage(root, dumps, works):
    """Names colliding on one key (the same papers in both), bad characters in text, a symlink out, a broken refs.db."""
    folder = dumps / "unarxive-2022"
    plain, _ = write_unarxive_2022(root / "same.jsonl", works, papers=4, seed=8, gzipped=False)
    same = plain.read_bytes().replace(b'"2212.110', b'"2212.140')  # ids of their own: the cut file has 2212.110..
    (folder / "Coll-X.jsonl").write_bytes(same)
    (folder / "coll_x.jsonl").write_bytes(same)
    text, _ = write_unarxive_2022(root / "text.jsonl", works, papers=5, seed=9, gzipped=False)
    lines = []
    for index, line in enumerate(text.read_bytes().replace(b'"2212.110', b'"2212.130').splitlines()):
        record = json.loads(line)
        paragraph = record["body_text"][0]
        if index in NASTY:
            paragraph["text"] = NASTY[index] + " " + paragraph["text"]
        line = json.dumps(record).encode()
        if index == 3:
            line = line.replace(b'"text": "', b'"text": "bad \xff\xfe bytes ', 1)
        if index == 4:
            line = line.replace(b'"text": "', b'"text": "lone \\ud800 surrogate ', 1)
        lines.append(line)
    lines.append(lines[1])  # the file joined from overlapping parts: a paper again, within one file
    (folder / "text.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    secret = root / "secret.txt"
    secret.write_text("SECRET outside the dump root\n")
    (dumps / "unarxive-2020" / "damaged" / "1999.99999.txt").symlink_to(secret)
    write_unarxive_2020(dumps / "unarxive-2020" / "broken_refs", works, papers=3, seed=7, damaged=False)
    (dumps / "unarxive-2020" / "broken_refs" / "refs.db").write_bytes(b"this is not SQLite\n" * 10)


@pytest.fixture(scope="module")
def built(tmp_path_factory, build_graph):
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
    write_issue_24_damage(root, dumps, works)
    write_mag_dump(dumps / "mag", works)
    write_openalex_snapshot(dumps / "openalex", works, per_part=20)
    part = sorted((dumps / "openalex").rglob("part_*.gz"))[-1]
    part.write_bytes(part.read_bytes()[:-30])
    settings, result, instance, _ = build_graph(dumps, root / "data")
    yield settings, result.failed, instance, dumps


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
    """What each file gave the lake (the generated 2020 files share papers: arxiv.papers holds each paper once)."""
    settings, _, _, dumps = built
    papers = dict(
        query(
            settings,
            "SELECT source_file, count(*) FROM lake.arxiv_papers "
            "WHERE release = 'unarxive-2020' AND source_file = 'cut.tar.gz' GROUP BY 1",
        )
    )
    assert 0 < papers["cut.tar.gz"] < 12
    whole = gzip.decompress((dumps.parent / "whole.jsonl.gz").read_bytes()).count(b"\n")
    cut = query(settings, "SELECT count(*) FROM lake.arxiv_papers WHERE source_file = 'cut.jsonl.gz'")[0][0]
    assert 0 < cut < whole
    # the damaged folder's 8 (its symlink out of the root not read) and the 3 beside the broken refs.db
    assert query(settings, "SELECT count(*) FROM lake.arxiv_papers WHERE source_file LIKE '%.txt'")[0][0] == 8 + 3
    # the same papers in several 2020 files (hep-th9201000.txt, and in cut.tar.gz): each once in the view
    assert query(settings, "SELECT count(*) - count(DISTINCT paper_id) FROM arxiv.papers") == [(0,)]
    repeated = query(settings, "SELECT count(*) FROM arxiv.duplicate_papers WHERE paper_id = 'hep-th/9201000'")
    assert repeated == [(2,)]


def test_the_context_csv_has_seven_fields_on_every_line_and_no_nul(built):
    settings, _, instance, _ = built
    data = (settings.export_dir("arxiv") / "contexts.csv").read_bytes()
    assert b"\x00" not in data
    lines = data.decode("utf-8").split("\n")
    assert lines[-1] == "" and all(len(line.split("\u241e")) == 7 for line in lines[:-1])
    contexts = query(settings, "SELECT count(*) FROM arxiv.contexts WHERE citing_paper_id LIKE '2212.130%'")[0][0]
    assert contexts > 0
    meta = latest_metadata(instance, "arxiv_context_export")
    assert meta["contexts_repaired"] >= 1 and {"nul", "separator"} <= set(meta["characters_replaced"])


def test_bad_bytes_and_lone_surrogates_keep_their_papers(built):
    settings, *_ = built
    papers = query(settings, "SELECT count(*) FROM arxiv.papers WHERE paper_id LIKE '2212.130%'")[0][0]
    assert papers == 5
    issues = query(
        settings, "SELECT file, line FROM arxiv.read_issues WHERE kind = 'invalid_utf8' AND file LIKE '%text.jsonl'"
    )
    assert sorted(issues) == [("unarxive-2022/text.jsonl", 4), ("unarxive-2022/text.jsonl", 5)]
    repeated = query(settings, "SELECT file, line FROM arxiv.read_issues WHERE kind = 'duplicate_paper_id'")
    assert repeated == [("unarxive-2022/text.jsonl", 6)]  # read once, the repeat counted
    assert query(settings, "SELECT count(*) FROM lake.arxiv_papers WHERE paper_id LIKE '2212.130%'") == [(5,)]


def test_colliding_names_are_both_read_and_each_paper_exported_once(built):
    settings, failed, instance, _ = built
    files = dict(
        query(
            settings,
            "SELECT source_file, count(*) FROM arxiv.duplicate_papers WHERE source_file LIKE '%oll%' GROUP BY 1",
        )
    )
    assert files == {"Coll-X.jsonl": 4, "coll_x.jsonl": 4}
    papers = query(
        settings, "SELECT count(*), count(DISTINCT paper_id) FROM arxiv.papers WHERE paper_id LIKE '2212.140%'"
    )
    assert papers == [(4, 4)]  # each paper once, from the kept file
    collision = query(
        settings, "SELECT shard, file FROM arxiv.read_issues WHERE kind = 'partition_key_collision' ORDER BY 1"
    )  # reported by both files, each under its own partition key
    assert [file for _, file in collision] == ["unarxive-2022/Coll-X.jsonl", "unarxive-2022/coll_x.jsonl"]
    assert collision[0][0] == "unarxive_2022_coll_x" and collision[1][0].startswith("unarxive_2022_coll_x_")
    collision = collision[1:]
    duplicates = query(
        settings,
        "SELECT dump_file, kept, count(*) FROM arxiv.duplicate_papers WHERE paper_id LIKE '2212.140%' GROUP BY ALL "
        "ORDER BY 1",
    )
    assert duplicates == [("unarxive_2022_coll_x", True, 4), (collision[0][0], False, 4)]
    per_paper = query(
        settings,
        "SELECT citing_paper_id, count(*) FROM arxiv.contexts WHERE citing_paper_id LIKE '2212.140%' GROUP BY 1",
    )
    csv = (settings.export_dir("arxiv") / "contexts.csv").read_text(encoding="utf-8").splitlines()
    for paper, view_rows in per_paper:
        exported = sum(1 for line in csv if line.split("\u241e")[5] == paper)
        assert exported == view_rows  # read from both files, in the view and exported from the kept one only
    assert len(per_paper) >= 3
    left_out = query(settings, "SELECT count(*) FROM arxiv.duplicate_papers WHERE NOT kept")[0][0]
    assert latest_metadata(instance, "arxiv_context_export")["repeated_papers_left_out"] == left_out


def test_a_symlink_out_of_the_root_is_not_read_and_a_broken_refs_db_keeps_the_papers(built):
    settings, failed, *_ = built
    assert query(settings, "SELECT count(*) FROM arxiv.paragraphs WHERE text LIKE '%SECRET%'")[0][0] == 0
    outside = query(settings, "SELECT file FROM arxiv.read_issues WHERE kind = 'outside_dump_root'")
    assert outside == [("unarxive-2020/damaged/1999.99999.txt",)]
    papers = lake.read_partition(settings.lake, "arxiv_papers", "unarxive_2020_broken_refs", dimension="dump_file")
    assert papers.num_rows == 3 and failed == []
    broken = query(settings, "SELECT file, message FROM arxiv.read_issues WHERE kind = 'unreadable_refs_db'")
    assert broken[0][0] == "unarxive-2020/broken_refs/refs.db" and "not unarXive's refs.db" in broken[0][1]


def test_read_issues_name_the_path_under_the_dump_root(built):
    settings, *_ = built
    cut = query(
        settings, "SELECT DISTINCT file FROM mag.read_issues WHERE kind IN ('truncated_gzip', 'truncated_line')"
    )
    assert len(cut) == 1 and cut[0][0].startswith("openalex/works/updated_date=") and cut[0][0].endswith(".gz")
    tar = query(settings, "SELECT DISTINCT file FROM arxiv.read_issues WHERE shard = 'unarxive_2020_cut'")
    assert ("unarxive-2020/cut.tar.gz",) in tar


def test_a_paper_in_two_dump_files_counts_once_in_every_view(built):
    """unarXive ships overlapping files (a paper again in a later file, two downloads of one part): the same four
    papers in Coll-X.jsonl and coll_x.jsonl. The contexts view holds exactly the CSV's lines; references are joined
    with the resolutions of their own dump file, once per item, so the resolution reports count each item once."""
    settings, *_ = built
    csv = (settings.export_dir("arxiv") / "contexts.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    with duckdb.connect(str(settings.warehouse), read_only=True) as connection:
        rows = connection.sql("SELECT * FROM arxiv.contexts").to_arrow_table().to_pylist()
    assert sorted(context_csv_line(row) for row in rows) == sorted(csv) and len(csv) > 0
    stored = lake.iter_table_rows(settings.lake, "arxiv_contexts", ["citing_paper_id"])
    assert sum(1 for row in stored if row["citing_paper_id"].startswith("2212.140")) > sum(
        line.split("\u241e")[5].startswith("2212.140") for line in csv
    )  # the lake holds both files' contexts
    ((items, distinct),) = query(
        settings,
        "SELECT count(*), count(DISTINCT (ref_id, citing_paper_id)) FROM arxiv.references "
        "WHERE citing_paper_id LIKE '2212.140%'",
    )
    one_file = query(
        settings,
        "SELECT count(*) FROM lake.arxiv_references WHERE citing_paper_id LIKE '2212.140%' "
        "AND dump_file = 'unarxive_2022_coll_x'",
    )[0][0]
    assert items == distinct == one_file > 0
    (total,) = query(settings, "SELECT count(*) FROM arxiv.references")[0]
    agreement = query(
        settings,
        "SELECT same + different + shipped_only + ours_only + neither FROM arxiv.link_agreement WHERE release = 'all'",
    )
    report = query(settings, "SELECT sum(items) FROM arxiv.resolution_report WHERE release = 'all'")
    assert agreement == [(total,)] and report == [(total,)]
    distinct = query(settings, "SELECT count(DISTINCT (dump_file, ref_id, citing_paper_id)) FROM arxiv.references")
    assert distinct == [(total,)]  # one row per item: no n x n join across the files that hold a paper
