"""unarXive 2020 and 2022 readers on the real samples and on damaged inputs built here."""

import gzip
import json
import shutil
import sqlite3
import tarfile
from pathlib import Path

import pytest

from citeworth_assets.lib.arxiv import unarxive2020, unarxive2022
from citeworth_assets.lib.identifiers import (
    find_arxiv_ids,
    find_dois,
    normalise_arxiv_id,
)
from citeworth_assets.lib.read_issues import IssueLog

UUID_A = "9ad20b7d-87d1-47f5-aeed-10a1cf89a2e2"
UUID_B = "298db7f5-9ebb-4e98-9ecf-0bdda28a42cb"


def make_refs_db(path: Path, rows: list[tuple]) -> Path:
    connection = sqlite3.connect(path)
    connection.execute(
        "create table bibitem (uuid varchar(36) not null, citing_mag_id varchar(36), cited_mag_id varchar(36),"
        " citing_arxiv_id varchar(36), cited_arxiv_id varchar(36), bibitem_string text, primary key (uuid))"
    )
    connection.executemany("insert into bibitem values (?, ?, ?, ?, ?, ?)", rows)
    connection.commit()
    connection.close()
    return path


@pytest.fixture
def small_dump(tmp_path) -> Path:
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "1412.3684.txt").write_text(
        f"Title\n\nIt is listed in the Wordnet{{{{cite:{UUID_A}}}}}{{{{cite:{UUID_B}}}}}\nlexical database.\n"
    )
    (folder / "hep-th9901001.txt").write_text("A paper without any citation marker.\n")
    (folder / "1703.01234.txt").write_bytes(
        b"Bad bytes \xff\xfe here {{cite:00000000-0000-4000-8000-000000000000}}.\nNext line.\n"
    )
    make_refs_db(
        folder / "refs.db",
        [
            (UUID_A, "100", "2081580037", "1412.3684", None, "G. A. Miller (1995). WordNet: A Lexical Database"),
            (UUID_B, "100", "2038721957", "1412.3684", "hep-th9812190", "C. Fellbaum (1998), WordNet, hep-th/9812190"),
        ],
    )
    return folder


def test_identifiers_old_and_new_style_and_dois():
    text = "K. Kondo, hep-th/0303251; arXiv:1703.01234v2; math.AG/0101001v3, doi:10.1103/PhysRevD.71.043514."
    assert find_arxiv_ids(text) == ["hep-th/0303251", "1703.01234", "math.AG/0101001"]
    assert find_dois(text) == ["10.1103/physrevd.71.043514"]
    assert find_dois("(see https://doi.org/10.1000/abc(1))") == ["10.1000/abc(1)"]
    assert normalise_arxiv_id("quant-ph9710013") == "quant-ph/9710013"
    assert normalise_arxiv_id("arXiv:0704.0001v1") == "0704.0001"
    assert find_arxiv_ids("Phys. Rev. D 71 (2005) 043514") == []


def test_real_unarxive_2020_every_paper_and_marker(shared_data):
    folder = shared_data / "unarxive-2020" / "papers"
    log = IssueLog()
    refs = unarxive2020.RefsDb(folder / "refs.db")
    papers = list(unarxive2020.iter_papers(folder, log, refs))
    files = sorted(p.name for p in folder.glob("*.txt"))
    assert [p.arxiv_id + ".txt" for p in papers] == files
    grep_markers = sum(p.read_text().count("{{cite:") for p in folder.glob("*.txt"))
    assert sum(p.row["n_markers"] for p in papers) == grep_markers
    assert sum(len(m) for p in papers for m in (par["markers"] for par in p.paragraphs)) == grep_markers
    assert log.total == 0, log.counts  # the real sample is clean: nothing lost, nothing unexplained
    paragraph = papers[0].paragraphs[-1]
    assert paragraph["line"] >= 1 and paragraph["byte_offset"] > 0
    for par in papers[0].paragraphs:
        for marker in par["markers"]:
            assert par["text"][marker["start"] : marker["end"]] == "{{cite:" + marker["ref_id"] + "}}"
    references = list(unarxive2020.iter_references(refs, log))
    count = sqlite3.connect(folder / "refs.db").execute("select count(*) from bibitem").fetchone()[0]
    assert len(references) == count == 4027
    assert sum(1 for r in references if r["linked_mag_id"]) == 2119
    assert papers[0].row["mag_id"] == "1967664233"
    assert all(p.row["abstract"] is None for p in papers)  # unarXive 2020 ships no abstract


def test_real_unarxive_2020_tarball_equals_folder(shared_data, tmp_path):
    folder = shared_data / "unarxive-2020" / "papers"
    tarball = tmp_path / "dump.tar.gz"
    with tarfile.open(tarball, "w:gz") as archive:
        for path in sorted(folder.iterdir()):
            archive.add(path, arcname=f"papers/{path.name}")
    log = IssueLog()
    with unarxive2020.refs_db_path(tarball, None, log) as db:
        refs = unarxive2020.RefsDb(db)
        from_tar = [p.row for p in unarxive2020.iter_papers(tarball, log, refs)]
        refs.close()
    assert log.total == 0
    from_folder = [p.row for p in unarxive2020.iter_papers(folder, IssueLog(), unarxive2020.RefsDb(folder / "refs.db"))]
    strip = lambda row: {k: v for k, v in row.items() if k not in ("source_file", "member")}
    assert [strip(r) for r in from_tar] == [strip(r) for r in from_folder]


def test_damaged_2020_inputs_are_counted(small_dump):
    log = IssueLog()
    papers = {
        p.arxiv_id: p for p in unarxive2020.iter_papers(small_dump, log, unarxive2020.RefsDb(small_dump / "refs.db"))
    }
    assert set(papers) == {"1412.3684", "hep-th9901001", "1703.01234"}
    assert log.counts == {"no_citation_markers": 1, "invalid_utf8": 1, "marker_without_bibitem": 1}
    assert papers["1703.01234"].row["n_markers_without_reference"] == 1
    assert "\ufffd" in papers["1703.01234"].text
    assert papers["hep-th9901001"].row["paper_id"] == "hep-th/9901001"
    assert papers["1412.3684"].row["mag_id"] == "100"
    issue = next(i for i in log.issues if i.kind == "invalid_utf8")
    assert issue.line == 1 and issue.paper_id == "1703.01234"


def test_truncated_tarball_keeps_papers_before_the_damage(small_dump, tmp_path):
    tarball = tmp_path / "dump.tar"
    with tarfile.open(tarball, "w") as archive:
        for name in ("1412.3684.txt", "hep-th9901001.txt", "1703.01234.txt"):
            archive.add(small_dump / name, arcname=name)
    data = tarball.read_bytes()
    third = tarfile.open(tarball).getmembers()[2]
    cut = tmp_path / "cut.tar"
    cut.write_bytes(data[: third.offset_data + 10])  # two full members, the third cut in its data
    log = IssueLog()
    papers = list(unarxive2020.iter_papers(cut, log))
    assert [p.arxiv_id for p in papers] == ["1412.3684", "hep-th9901001"]
    assert log.counts.get("truncated_tarball") == 1
    gz = tmp_path / "cut.tar.gz"
    gz.write_bytes(gzip.compress(data, compresslevel=0)[: third.offset_data + 30])  # stored: offsets carry over
    log = IssueLog()
    assert [p.arxiv_id for p in unarxive2020.iter_papers(gz, log)] == ["1412.3684", "hep-th9901001"]
    assert log.counts.get("truncated_tarball") == 1


def test_bad_bytes_in_refs_db_are_replaced_and_counted(tmp_path):
    db = make_refs_db(tmp_path / "refs.db", [("u1", "1", None, "1412.3684", None, "ok")])
    connection = sqlite3.connect(db)
    connection.execute(
        "insert into bibitem values ('u2', '1', ?, '1412.3684', null, ?)", (b"20\xff1", b"T. Heinzl \xfe")
    )
    connection.commit()
    connection.close()
    log = IssueLog()
    rows = list(unarxive2020.iter_references(unarxive2020.RefsDb(db), log))
    assert [r["ref_id"] for r in rows] == ["u1", "u2"]
    assert log.counts == {"invalid_utf8": 2, "bad_mag_id": 1}  # the replaced cited MAG id is no number any more
    assert rows[1]["raw_string"].startswith("T. Heinzl") and rows[1]["linked_mag_id"] is None


def test_real_unarxive_2022_every_paper_marker_and_reference(shared_data):
    path = shared_data / "unarxive-2022" / "arXiv_src_2212_086.first20.jsonl"
    log = IssueLog()
    papers = list(unarxive2022.iter_papers(path, log))
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert [p.arxiv_id for p in papers] == [r["paper_id"] for r in records]
    assert sum(len(p.paragraphs) for p in papers) == sum(len(r["body_text"]) for r in records)
    assert sum(p.row["n_markers"] for p in papers) == sum(
        len(par["cite_spans"]) for r in records for par in r["body_text"]
    )
    assert sum(len(p.references) for p in papers) == sum(len(r["bib_entries"]) for r in records)
    # the only issues are the three real papers without any citation marker
    assert log.counts == {"no_citation_markers": 3}
    ids = {r["linked_openalex_id"] for p in papers for r in p.references}
    assert "https://openalex.org/W4225968159" in ids
    contained = [r for p in papers for r in p.references if "2002.11768" in r["arxiv_ids"]]
    assert contained
    # every real record has an abstract paragraph: kept whitespace-collapsed, the metadata's copy not needed
    assert [p.row["abstract"] for p in papers] == [" ".join(r["abstract"]["text"].split()) for r in records]
    assert all(p.row["abstract"] for p in papers)


def test_damaged_2022_gzip_is_counted(shared_data, tmp_path):
    path = shared_data / "unarxive-2022" / "arXiv_src_2212_086.first20.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    broken = json.loads(lines[0])
    broken["body_text"] = None
    broken["bib_entries"] = {"x": "not an object"}
    data = json.dumps(broken).encode() + b"\n" + b"{not json\n" + b"".join(lines[1:3])
    gz = tmp_path / "part.jsonl.gz"
    gz.write_bytes(gzip.compress(data)[:-300])
    log = IssueLog()
    papers = list(unarxive2022.iter_papers(gz, log))
    assert papers[0].paragraphs == [] and papers[0].references[0]["raw_string"] is None
    assert log.counts["invalid_json"] == 1
    assert log.counts.get("truncated_gzip", 0) + log.counts.get("truncated_line", 0) >= 1
    assert log.counts["bad_type"] == 1 and log.counts["missing_body_text"] == 1


def test_2022_abstract_falls_back_to_the_metadata_and_counts_a_bad_type(tmp_path):
    log = IssueLog()
    base = {
        "paper_id": "2212.00001",
        "metadata": {"title": "T", "abstract": " From the\n metadata. "},
        "body_text": [{"section": "S", "text": "Text {{cite:aa}}.", "cite_spans": [{"ref_id": "aa"}]}],
        "bib_entries": {"aa": {"bib_entry_raw": "A reference."}},
    }
    rows = [
        unarxive2022.paper_from_record({**base, **extra}, tmp_path / "f.jsonl", n, 0, log).row
        for n, extra in enumerate(
            [{}, {"abstract": {"text": "  "}}, {"abstract": "Plain string."}, {"abstract": {"text": 7}}], 1
        )
    ]
    assert [r["abstract"] for r in rows] == ["From the metadata."] * 2 + ["Plain string.", "From the metadata."]
    assert log.counts == {"bad_type": 1}
    assert unarxive2022.abstract_of({}, {}) is None


def _references_of(folder, refs_db) -> list[dict]:
    log = IssueLog()
    refs = unarxive2020.RefsDb(refs_db)
    try:
        citing = {paper.arxiv_id for paper in unarxive2020.iter_papers(folder, log, refs)}
        return list(unarxive2020.iter_references(refs, log, citing=citing))
    finally:
        refs.close()


def test_a_real_folder_split_in_two_with_the_full_refs_db_gives_the_same_references(shared_data, tmp_path):
    """refs.db shared by two folders: each gives its own papers' bibitems, together those of one folder."""
    folder = shared_data / "unarxive-2020" / "papers"
    texts = sorted(folder.glob("*.txt"))
    for half, paths in (("a", texts[::2]), ("b", texts[1::2])):
        (tmp_path / half).mkdir()
        for path in [*paths, folder / "refs.db"]:
            shutil.copy(path, tmp_path / half / path.name)
    whole = _references_of(folder, folder / "refs.db")
    parts = _references_of(tmp_path / "a", folder / "refs.db") + _references_of(tmp_path / "b", folder / "refs.db")
    # refs.db lists 4027 items of 605 papers; 3520 belong to the 100 papers whose text the sample ships
    assert len(whole) == len(parts) == 3520
    assert sorted(r["ref_id"] for r in parts) == sorted(r["ref_id"] for r in whole)
    assert {r["citing_paper_id"] for r in whole} <= {p.stem for p in texts}


def test_real_2020_texts_are_rebuilt_exactly_from_the_stored_paragraphs(shared_data):
    """Contexts are computed from the lake: every real text comes back from its paragraphs and paper row."""
    papers = list(unarxive2020.iter_papers(shared_data / "unarxive-2020" / "papers", IssueLog()))
    assert any(p.row["whitespace_lines"] for p in papers)  # the sample has lines of only spaces
    for paper in papers:
        row = paper.row
        assert unarxive2020.text_from_paragraphs(paper.paragraphs, row["text_lines"], row["whitespace_lines"]) == (
            paper.text
        )
