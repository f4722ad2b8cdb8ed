import csv
import io
import json

import pytest

from citeworth_assets.lib.manual_eval.store import (
    DuplicateJudgement,
    JudgementStore,
    annotation_sheet_csv,
)


def events(store, annotator):
    return [json.loads(line) for line in (store.dir / f"{annotator}.jsonl").read_text().splitlines()]


def test_judge_undo_and_active(tmp_path):
    store = JudgementStore(tmp_path / "judgements")
    first = store.judge("alice", "a", True, False, "hanging bracket")
    store.judge("alice", "b", False, True)
    store.judge("bob", "a", True, True)
    assert first["seq"] == 1 and first["action"] == "judge" and first["comment"] == "hanging bracket"
    assert first["at"].endswith("+00:00")
    assert list(store.active("alice")) == ["a", "b"]

    undone = store.undo("alice")
    assert undone["item_id"] == "b" and undone["seq"] == 2
    assert list(store.active("alice")) == ["a"]
    assert store.undo("alice")["item_id"] == "a"
    assert store.undo("alice") is None
    assert store.active("alice") == {}

    store.judge("alice", "b", True, True)  # an undone item can be judged again
    assert [e["seq"] for e in events(store, "alice")] == [1, 2, 3, 4, 5]
    assert [e["action"] for e in events(store, "alice")] == ["judge", "judge", "undo", "undo", "judge"]
    assert events(store, "alice")[2]["undoes"] == 2
    assert {(j["annotator"], j["item_id"]) for j in store.all_active()} == {("alice", "b"), ("bob", "a")}
    assert set(store.all_active()[0]) == {
        "annotator",
        "item_id",
        "extracted_correctly",
        "markers_removed",
        "comment",
        "at",
    }


def test_placeholder_file_is_there_and_never_an_annotator(tmp_path):
    store = JudgementStore(tmp_path / "j")
    assert (tmp_path / "j" / "_none.jsonl").read_text() == ""
    store.judge("alice", "a", True, True)
    assert store.annotators() == ["alice"]
    with pytest.raises(ValueError):
        store.judge("_none", "a", True, True)


def test_a_second_store_sees_everything_written(tmp_path):
    JudgementStore(tmp_path).judge("alice", "a", True, False)
    JudgementStore(tmp_path).judge("alice", "b", False, False)
    JudgementStore(tmp_path).undo("alice")
    assert list(JudgementStore(tmp_path).active("alice")) == ["a"]


def test_every_event_is_fsynced_before_returning(tmp_path, monkeypatch):
    import citeworth_assets.lib.manual_eval.store as module

    synced = []
    real_fsync = module.os.fsync
    monkeypatch.setattr(module.os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd)))
    store = JudgementStore(tmp_path)
    store.judge("alice", "a", True, False)
    store.undo("alice")
    assert len(synced) >= 2


def test_a_truncated_last_line_is_ignored_and_cut_off_by_the_next_write(tmp_path):
    store = JudgementStore(tmp_path)
    store.judge("alice", "a", True, False)
    store.judge("alice", "b", True, False)
    path = tmp_path / "alice.jsonl"
    path.write_bytes(path.read_bytes() + b'{"seq": 3, "action": "judge", "annotator": "al')  # crash mid-write
    assert list(JudgementStore(tmp_path).active("alice")) == ["a", "b"]
    store.judge("alice", "c", False, False)
    assert [e["item_id"] for e in events(store, "alice")] == ["a", "b", "c"]
    assert events(store, "alice")[-1]["seq"] == 3


def test_damage_in_the_middle_is_reported_not_silent_and_blocks_writing(tmp_path):
    store = JudgementStore(tmp_path)
    store.judge("alice", "a", True, False)
    path = tmp_path / "alice.jsonl"
    path.write_text("not json\n" + path.read_text())
    assert list(store.active("alice")) == ["a"]  # the rest is served (issue 10: one bad line is not a 500 for all)
    assert len(store.problems_of("alice")) == 1 and "alice.jsonl:1" in store.problems_of("alice")[0]
    with pytest.raises(ValueError, match="alice.jsonl:1"):
        store.judge("alice", "b", True, False)


def test_duplicates_and_bad_values_are_refused(tmp_path):
    store = JudgementStore(tmp_path)
    store.judge("alice", "a", True, False)
    with pytest.raises(DuplicateJudgement):
        store.judge("alice", "a", False, False)
    for bad in [
        ("alice", "b", "yes", True),
        ("alice", "b", True, 1),
        ("alice", "", True, True),
        ("alice", 5, True, True),
    ]:
        with pytest.raises(ValueError):
            store.judge(*bad)
    with pytest.raises(ValueError):
        store.judge("alice", "b", True, True, comment=None)
    assert len(events(store, "alice")) == 1


@pytest.mark.parametrize("name", ["", "a" * 65, "../etc", "a/b", "al ice", "é", None, "_none"])
def test_annotator_names_are_restricted(tmp_path, name):
    store = JudgementStore(tmp_path)
    with pytest.raises(ValueError):
        store.judge(name, "a", True, True)
    with pytest.raises(ValueError):
        store.undo(name)
    assert {path.name for path in tmp_path.iterdir()} <= {".lock", "_none.jsonl"}


def test_valid_names(tmp_path):
    store = JudgementStore(tmp_path)
    for name in ["alice", "Bob_2", "c.d-e", "x" * 64]:
        store.judge(name, "a", True, True)
    assert store.annotators() == sorted(["alice", "Bob_2", "c.d-e", "x" * 64])


def test_csv_export_import_round_trip(tmp_path):
    source = JudgementStore(tmp_path / "source")
    source.judge("alice", "a", True, False, 'has "quotes", commas\nand a newline')
    source.judge("alice", "b", False, True)
    source.judge("bob", "a", True, True)
    text = source.export_csv()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert list(rows[0]) == ["annotator", "item_id", "extracted_correctly", "markers_removed", "comment", "at"]
    assert [(r["annotator"], r["item_id"], r["extracted_correctly"], r["markers_removed"]) for r in rows] == [
        ("alice", "a", "yes", "no"),
        ("alice", "b", "no", "yes"),
        ("bob", "a", "yes", "yes"),
    ]
    assert len(list(csv.DictReader(io.StringIO(source.export_csv("bob"))))) == 1

    target = JudgementStore(tmp_path / "target")
    assert target.import_csv(text) == 3
    assert target.all_active() == source.all_active()
    assert target.import_csv(text) == 0  # identical rows are skipped: importing twice is harmless


def test_filled_sheet_import(tmp_path):
    store = JudgementStore(tmp_path)
    sheet = annotation_sheet_csv(
        [
            {"item_id": "b", "position": 1, "text": "Second, with <b>markup</b>.", "paragraph": "p"},
            {"item_id": "a", "position": 0, "text": "First.", "paragraph": "p"},
            {"item_id": "c", "position": 2, "text": "Third.", "paragraph": "p"},
        ]
    )
    rows = list(csv.DictReader(io.StringIO(sheet)))
    assert list(rows[0]) == ["item_id", "position", "text", "extracted_correctly", "markers_removed", "comment"]
    assert [r["item_id"] for r in rows] == ["a", "b", "c"]
    rows[0].update(extracted_correctly="Yes", markers_removed="0", comment="ok")
    rows[1].update(extracted_correctly="TRUE", markers_removed="no")  # row c left blank: skipped
    out = io.StringIO()
    writer = csv.DictWriter(out, list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)
    assert store.import_csv(out.getvalue(), "carol", known_items={"a", "b", "c"}) == 2
    active = store.active("carol")
    assert [(i, j["extracted_correctly"], j["markers_removed"], j["comment"]) for i, j in active.items()] == [
        ("a", True, False, "ok"),
        ("b", True, False, ""),
    ]


@pytest.mark.parametrize(
    "bad_row, message",
    [
        ("z,yes,no,", "unknown item"),
        ("b,maybe,no,", "extracted_correctly must be yes or no"),
        ("b,yes,,", "markers_removed"),
        ("a,no,no,", "already judged"),
        ("b,yes,no,,extra", "more fields"),
    ],
)
def test_import_writes_nothing_when_any_row_is_bad(tmp_path, bad_row, message):
    store = JudgementStore(tmp_path)
    store.judge("dave", "a", True, True)
    before = (tmp_path / "dave.jsonl").read_bytes()
    text = "item_id,extracted_correctly,markers_removed,comment\nc,yes,yes,\n" + bad_row + "\n"
    with pytest.raises(ValueError, match=f"row 3 .*{message}"):
        store.import_csv(text, "dave", known_items={"a", "b", "c"})
    assert (tmp_path / "dave.jsonl").read_bytes() == before


def test_import_checks_columns_and_annotators(tmp_path):
    store = JudgementStore(tmp_path)
    with pytest.raises(ValueError, match="markers_removed"):
        store.import_csv("item_id,extracted_correctly\na,yes\n", "dave")
    with pytest.raises(ValueError, match="annotator"):
        store.import_csv("item_id,extracted_correctly,markers_removed\na,yes,no\n")
    with pytest.raises(ValueError, match="not 'dave'"):
        store.import_csv("annotator,item_id,extracted_correctly,markers_removed\nerin,a,yes,no\n", "dave")
    with pytest.raises(ValueError, match="bad annotator"):
        store.import_csv("annotator,item_id,extracted_correctly,markers_removed\n../x,a,yes,no\n")
    assert store.annotators() == []


def test_concurrent_writers_never_reuse_a_seq(tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    stores = [JudgementStore(tmp_path), JudgementStore(tmp_path)]  # e.g. the server and a CLI import
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda i: stores[i % 2].judge("alice", f"item{i}", True, i % 3 == 0), range(200)))
    assert sorted(e["seq"] for e in events(stores[0], "alice")) == list(range(1, 201))
    assert len(stores[1].active("alice")) == 200
