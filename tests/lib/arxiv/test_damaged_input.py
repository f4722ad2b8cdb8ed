"""Issue 24: damaged arXiv input never fails a run and loses nothing else. The context CSV survives any Unicode,
colliding dump names are both kept, symlinks out of the dump root are not read, a broken refs.db is one counted
problem, Punkt sees bounded text, a unarXive 2022 line with bad bytes or lone surrogates keeps its paper."""

import json
import random
import sqlite3
from pathlib import Path

import pytest

from citeworth_assets.lib.arxiv import context_windows as contexts_module
from citeworth_assets.lib.arxiv import unarxive2020, unarxive2022
from citeworth_assets.lib.arxiv.context_extraction import Candidate, ContextRow, contexts_2020, text_contexts
from citeworth_assets.lib.arxiv.context_windows import PUBLISHED_SETTINGS, UNARXIVE_2020, punkt_tokenizer, split_blocks
from citeworth_assets.lib.arxiv.csv_export import write_contexts_csv
from citeworth_assets.lib.arxiv.dump_files import discover_dump_files, dump_issues, find_dump_file
from citeworth_assets.lib.citrec.contexts import read_contexts
from citeworth_assets.lib.context_csv import UNSAFE_TEXT, CsvRepairs
from citeworth_assets.lib.read_issues import IssueLog

UUID = "11111111-1111-4111-8111-111111111111"
NASTY = "\x00\u241e\u241f\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\u2028\u2029\x1b\x7f\x9b\ud800\udfff\t"


def row(text: str, cited="2038721957", adjacent=(("111", "1301.0001"),), citing="1412.3684") -> ContextRow:
    return ContextRow((0,), citing, None, UUID, 0, cited, None, list(adjacent), text)


def seven_fields(path: Path) -> list[list[str]]:
    data = path.read_bytes()
    assert b"\x00" not in data
    lines = data.decode("utf-8").split("\n")
    assert lines[-1] == ""
    fields = [line.split("\u241e") for line in lines[:-1]]
    assert all(len(f) == 7 for f in fields), [len(f) for f in fields]
    return fields


def bibitem_db(path: Path, *rows: tuple) -> None:
    """A refs.db with unarXive's bibitem table holding ``rows`` (uuid, citing MAG, cited MAG, citing arXiv id)."""
    db = sqlite3.connect(path)
    db.execute(
        "create table bibitem (uuid, citing_mag_id, cited_mag_id, citing_arxiv_id, cited_arxiv_id, bibitem_string)"
    )
    db.executemany("insert into bibitem values (?, ?, ?, ?, null, 'raw')", rows)
    db.commit()
    db.close()


def test_every_context_is_one_seven_field_line_whatever_its_text(tmp_path):
    rng = random.Random(24)
    texts = [f"before {NASTY} MAINCIT after", "clean MAINCIT text", NASTY]
    # random code points from the whole range, surrogates included: nothing breaks a line or a field
    texts += ["".join(chr(rng.randrange(0x110000)) for _ in range(60)) + " MAINCIT" for _ in range(200)]
    rows = [row(t) for t in texts] + [row("x MAINCIT", cited="20\u241e38", adjacent=(("1\u241f2", "a\x00"),))]
    repairs = CsvRepairs()
    assert write_contexts_csv((r.as_row() for r in rows), tmp_path / "c.csv", repairs) == len(rows)
    fields = seven_fields(tmp_path / "c.csv")
    assert fields[1] == ["2038721957", "111", "None", "None", "1301.0001", "1412.3684", "clean MAINCIT text"]
    assert fields[0][6].startswith("before ") and fields[0][6].endswith(" MAINCIT after")
    unsafe = sum(1 for t in texts if UNSAFE_TEXT.search(t)) + 1  # + the last row's ids
    assert repairs.lines == unsafe > 20 and repairs.first_line == 1
    assert {"nul", "separator", "line_break", "control", "lone_surrogate"} <= set(repairs.characters)
    assert "contexts held characters" in repairs.warning()
    issues = IssueLog()
    read = list(read_contexts(tmp_path / "c.csv", issues))
    # every line parses; only the last one's MAG ids (now U+FFFD where the separators were) are refused
    assert len(read) == len(rows) - 1
    assert issues.counts == {"bad_context_line": 1} and issues.issues[0].line == len(rows)


def test_a_nul_costs_its_line_only_and_a_bom_keeps_the_first_line(tmp_path):
    good = "\u241e".join(["2038721957", "None", "None", "None", "None", "1412.3684", "text MAINCIT ."]) + "\n"
    path = tmp_path / "c.csv"
    path.write_bytes(b"\xef\xbb\xbf" + good.encode() + good.replace("text", "te\x00xt").encode() + good.encode())
    issues = IssueLog()
    read = list(read_contexts(path, issues))
    assert [c.line for c in read] == [1, 2, 3]
    assert read[1].text == "te\ufffdxt MAINCIT ."
    assert issues.counts == {"nul_in_line": 1} and issues.issues[0].line == 2
    binary = tmp_path / "binary.csv"
    rng = random.Random(1)
    binary.write_bytes(bytes(rng.randrange(256) for _ in range(5000)))
    issues = IssueLog()
    assert list(read_contexts(binary, issues)) == [] and issues.counts == {"not_text": 1}


def test_a_mag_id_that_is_not_a_number_is_refused_in_the_csv_and_in_refs_db(tmp_path):
    fields = ["abc", "None", "None", "None", "None", "1412.3684", "text MAINCIT ."]
    (tmp_path / "c.csv").write_text("\u241e".join(fields) + "\n", encoding="utf-8")
    issues = IssueLog()
    assert list(read_contexts(tmp_path / "c.csv", issues)) == []
    assert "MAG id 'abc' is not a number" in issues.issues[0].message
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "1412.3684.txt").write_text("One. It is cited {{cite:" + UUID + "}} here. Two.\n")
    bibitem_db(folder / "refs.db", (UUID, "x1", "W123", "1412.3684"))
    log = IssueLog()
    assert contexts_2020(folder, folder / "refs.db", PUBLISHED_SETTINGS, log) == []
    assert log.counts == {"bad_mag_id": 1}
    log = IssueLog()
    (reference,) = unarxive2020.iter_references(unarxive2020.RefsDb(folder / "refs.db"), log)
    assert reference["linked_mag_id"] is None and reference["citing_mag_id"] is None and log.counts == {"bad_mag_id": 2}


def test_dump_names_that_normalise_to_one_key_are_all_kept_and_reported(tmp_path):
    folder = tmp_path / "unarxive-2022"
    folder.mkdir()
    for name in ("Coll-X.jsonl", "coll_x.jsonl", "coll.x.jsonl", "same.jsonl", "same.jsonl.gz"):
        (folder / name).write_text('{"paper_id": "1701.00001"}\n')
    dumps = discover_dump_files(tmp_path)
    by_name = {d.path.name: d for d in dumps}
    assert sorted(by_name) == ["Coll-X.jsonl", "coll.x.jsonl", "coll_x.jsonl", "same.jsonl.gz"]
    keys = [d.key for d in dumps]
    assert len(set(keys)) == 4 and by_name["Coll-X.jsonl"].key == "unarxive_2022_coll_x"
    assert all(find_dump_file(tmp_path, d.key) == d for d in dumps)
    assert discover_dump_files(tmp_path) == dumps  # deterministic
    issues = dump_issues(by_name["coll_x.jsonl"])
    assert [i.kind for i in issues] == ["partition_key_collision"] and "Coll-X.jsonl" in issues[0].message
    assert [i.kind for i in dump_issues(by_name["same.jsonl.gz"])] == ["same_dump_in_two_forms"]


def test_symlinks_out_of_the_dump_root_are_not_followed(tmp_path):
    outside = tmp_path / "secret.txt"
    outside.write_text("SECRET {{cite:" + UUID + "}} text.\n")
    root = tmp_path / "dumps"
    folder = root / "unarxive-2020" / "part"
    folder.mkdir(parents=True)
    (folder / "1701.00001.txt").write_text("Inside {{cite:" + UUID + "}} text.\n")
    (folder / "1701.00002.txt").symlink_to(outside)
    (root / "shared.txt").write_text("Shared {{cite:" + UUID + "}} text.\n")
    (folder / "1701.00003.txt").symlink_to(root / "shared.txt")  # a link inside the root is fine
    log = IssueLog()
    papers = {p.arxiv_id: p.text for p in unarxive2020.iter_papers(folder, log, root=root)}
    assert sorted(papers) == ["1701.00001", "1701.00003"] and "SECRET" not in "".join(papers.values())
    assert log.counts["outside_dump_root"] == 1 and log.issues[0].file.endswith("1701.00002.txt")
    bibitem_db(folder / "refs.db", (UUID, "1", "2", "1701.00002"))
    log = IssueLog()
    assert contexts_2020(folder, folder / "refs.db", PUBLISHED_SETTINGS, log, root=root) == []
    assert log.counts == {"outside_dump_root": 1, "citing_paper_missing": 1}
    # a dump folder that is itself a link (a dump root assembled from links) is read: its files lead nowhere else
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "1701.00004.txt").write_text("Linked folder {{cite:" + UUID + "}} text.\n")
    (root / "unarxive-2020" / "linked").symlink_to(elsewhere)
    log = IssueLog()
    papers = [p.arxiv_id for p in unarxive2020.iter_papers(root / "unarxive-2020" / "linked", log, root=root)]
    assert papers == ["1701.00004"] and "outside_dump_root" not in log.counts


@pytest.mark.parametrize(
    "content, reason",
    [
        (b"this is not a database", "not unarXive's refs.db (file is not a database)"),
        (b"", "an empty file"),
        ("other_schema", "no such column"),
        ("wrong_table", "no such table: bibitem"),
    ],
)
def test_a_refs_db_that_cannot_be_read_is_one_issue_and_the_papers_are_kept(tmp_path, content, reason):
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "1701.00001.txt").write_text("Text {{cite:" + UUID + "}} here.\n")
    if isinstance(content, bytes):
        (folder / "refs.db").write_bytes(content)
    else:
        db = sqlite3.connect(folder / "refs.db")
        db.execute("create table bibitem (uuid, cited)" if content == "other_schema" else "create table refs (uuid)")
        db.commit()
        db.close()
    log = IssueLog()
    assert unarxive2020.open_refs_db(folder / "refs.db", log) is None
    assert log.counts == {"unreadable_refs_db": 1} and reason in log.issues[0].message
    assert [p.arxiv_id for p in unarxive2020.iter_papers(folder, log, None)] == ["1701.00001"]
    assert contexts_2020(folder, folder / "refs.db", PUBLISHED_SETTINGS, IssueLog()) == []


def test_an_empty_bibitem_table_is_said(tmp_path):
    bibitem_db(tmp_path / "refs.db")
    log = IssueLog()
    refs = unarxive2020.open_refs_db(tmp_path / "refs.db", log)
    assert refs is not None and log.counts == {"empty_refs_db": 1}
    refs.close()


def test_punkt_sees_bounded_blocks_so_its_time_guard_never_trips(monkeypatch):
    import nltk.redos

    # the guard scaled down 20x (5 s -> 0.25 s), the text (50 MB -> 0.5 MB) too, and the block further (1 MB -> 5 kB)
    # so that a block stays far below the guard on a busy machine
    monkeypatch.setattr(nltk.redos, "DEFAULT_TIMEOUT", 0.25)
    sentence = "The model of Smith et al. fits the data well and we use it here. "
    marker = "{{cite:" + UUID + "}}"
    text = sentence * 3850 + "It is cited " + marker + " in this sentence. " + sentence * 3850  # ~0.5M characters
    tokenizer = punkt_tokenizer()
    with pytest.raises(TimeoutError):  # what one huge line did to arxiv_contexts
        list(tokenizer.span_tokenize(text))
    monkeypatch.setattr(contexts_module, "MAX_SPLIT_CHARS", 5_000)
    blocks = split_blocks(text)
    assert len(blocks) > 90 and all(e - s <= 5_000 for s, e in blocks) and blocks[-1][1] == len(text)
    reported = []
    candidate = Candidate(UUID, "2038721957", None, None, "1701.00001")
    (context,) = text_contexts(
        text, [((0,), candidate)], {UUID: ("2038721957", None)}, PUBLISHED_SETTINGS, UNARXIVE_2020,
        tokenizer=tokenizer, report=lambda kind, message: reported.append(kind),
    )  # fmt: skip
    assert "It is cited MAINCIT in this sentence." in context.text
    assert reported == ["long_text_split"]


def test_bad_bytes_and_lone_surrogates_in_a_2022_line_keep_the_paper(tmp_path):
    def record(paper_id: str, text: str) -> bytes:
        return json.dumps({"paper_id": paper_id, "metadata": {"title": "T"}, "body_text": [{"text": text}]}).encode()

    path = tmp_path / "d.jsonl"
    path.write_bytes(
        b"\n".join(
            [
                record("2212.00001", "clean"),
                record("2212.00002", "bad XX bytes").replace(b"XX", b"\xff\xfe"),
                record("2212.00003", "lone SURR here").replace(b"SURR", b"\\ud800"),
                record("2212.00004", "low SURR first").replace(b"SURR", b"\\udc00\\ud800"),
                b'{"paper_id": "2212.00005", broken',
            ]
        )
        + b"\n"
    )
    log = IssueLog()
    papers = {p.arxiv_id: p.paragraphs[0]["text"] for p in unarxive2022.iter_papers(path, log)}
    assert papers == {
        "2212.00001": "clean",
        "2212.00002": "bad \ufffd\ufffd bytes",
        "2212.00003": "lone \ufffd here",
        "2212.00004": "low \ufffd\ufffd first",
    }
    assert log.counts["invalid_utf8"] == 3 and log.counts["invalid_json"] == 1
    assert {i.line for i in log.issues if i.kind == "invalid_utf8"} == {2, 3, 4}
