import csv
import inspect
import io
import json
import threading
import urllib.error
import urllib.request

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from citeworth_assets.lib.manual_eval.server import MAX_JSON_BYTES, make_server
from citeworth_assets.lib.manual_eval.store import JudgementStore

SCRIPT = "We show <script>alert(1)</script> that it works."
ITEMS = [  # rows not in display order, to check that position decides
    {
        "item_id": "c3",
        "position": 2,
        "text": "Third sentence.",
        "method": "SECRET_ours",
        "label": "SECRET_check-worthy",
    },
    {"item_id": "a1", "position": 0, "text": SCRIPT, "method": "SECRET_baseline", "label": "SECRET_non-check-worthy"},
    {
        "item_id": "b2",
        "position": 1,
        "text": "Second sentence.",
        "method": "SECRET_ours",
        "label": "SECRET_non-check-worthy",
    },
    {
        "item_id": "d4",
        "position": 3,
        "text": "Fourth sentence.",
        "method": "SECRET_baseline",
        "label": "SECRET_check-worthy",
    },
]


def write_sample(path):
    rows = [{**item, "paragraph": f"Before. {item['text']} After.", "paper_id": "SECRET_paper"} for item in ITEMS]
    pq.write_table(pa.Table.from_pylist(rows), path)
    return path


class Client:
    """Talks to a running server and keeps every response body for the blindness check."""

    def __init__(self, server):
        self.base = server.url.rstrip("/")
        self.bodies = []

    def call(self, method, path, body=None, content_type="application/json", headers=None):
        data = json.dumps(body).encode() if isinstance(body, (dict, list)) else body
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=headers or {})
        if data is not None:
            request.add_header("Content-Type", content_type)
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                status, raw, response_headers = response.status, response.read(), response.headers
        except urllib.error.HTTPError as error:
            status, raw, response_headers = error.code, error.read(), error.headers
        self.bodies.append(raw)
        return status, raw, response_headers

    def json(self, method, path, body=None, **options):
        status, raw, headers = self.call(method, path, body, **options)
        assert headers["Content-Type"].startswith("application/json")
        return status, json.loads(raw)

    def judge(self, annotator, item_id, extracted=True, markers=True, **extra):
        body = {
            "annotator": annotator,
            "item_id": item_id,
            "extracted_correctly": extracted,
            "markers_removed": markers,
        }
        return self.json("POST", "/api/judgements", {**body, **extra})


def start(sample, store_dir):
    server = make_server(sample, store_dir, port=0)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
    return server


@pytest.fixture
def paths(tmp_path):
    return write_sample(tmp_path / "part-0.parquet"), tmp_path / "judgements"


@pytest.fixture
def server(paths):
    server = start(*paths)
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture
def client(server):
    client = Client(server)
    yield client
    for body in client.bodies:  # blind annotation: the private columns never reach the browser
        assert b"SECRET" not in body and b'"method"' not in body and b'"label"' not in body


def test_binds_to_loopback_by_default(server):
    assert inspect.signature(make_server).parameters["host"].default == "127.0.0.1"
    assert inspect.signature(make_server).parameters["port"].default == 8765
    assert server.server_address[0] == "127.0.0.1"
    assert server.url.startswith("http://127.0.0.1:")


def test_page_is_self_contained(client):
    status, raw, headers = client.call("GET", "/")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    policy = headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "script-src 'sha256-" in policy and "unsafe-inline'; style" not in policy
    page = raw.decode()
    assert "<script>" in page and "innerHTML" not in page
    assert "http://" not in page and "https://" not in page and " src=" not in page


def test_state_serves_items_in_position_order_and_resumes(client, server, paths):
    status, state = client.json("GET", "/api/state?annotator=alice")
    assert status == 200
    assert state == {
        "annotator": "alice",
        "total": 4,
        "done": 0,
        "next": {"item_id": "a1", "position": 0, "text": SCRIPT},
        "last": None,
    }
    assert client.judge("alice", "a1", True, False, comment="fine")[0] == 201
    assert client.judge("alice", "c3", False, True)[0] == 201
    _, state = client.json("GET", "/api/state?annotator=alice")
    assert (state["done"], state["next"]["item_id"]) == (2, "b2")
    assert state["last"]["item_id"] == "c3" and state["last"]["position"] == 2
    assert client.json("GET", "/api/state?annotator=bob")[1]["next"]["item_id"] == "a1"  # per annotator

    restarted = start(*paths)  # a new server over the same files resumes where alice left off
    try:
        _, state = Client(restarted).json("GET", "/api/state?annotator=alice")
        assert (state["done"], state["next"]["item_id"]) == (2, "b2")
    finally:
        restarted.shutdown()
        restarted.server_close()


def test_markup_in_sentences_is_plain_json_text(client):
    status, raw, headers = client.call("GET", "/api/state?annotator=alice")
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert json.loads(raw)["next"]["text"] == SCRIPT
    status, paragraph = client.json("GET", "/api/paragraph?item_id=a1")
    assert status == 200 and paragraph == {"item_id": "a1", "paragraph": f"Before. {SCRIPT} After."}


def test_unknown_paths_and_items_are_json_404s(client):
    assert client.json("GET", "/api/paragraph?item_id=nope") == (404, {"error": "unknown item 'nope'"})
    assert client.json("GET", "/api/nothing")[0] == 404
    assert client.json("POST", "/api/nothing", {})[0] == 404
    assert client.json("GET", "/api/state")[0] == 400  # no annotator


def test_judgement_is_stored_and_returned(client, paths):
    status, judgement = client.judge("alice", "b2", False, True, comment="cut mid-word")
    assert status == 201
    assert judgement["item_id"] == "b2" and judgement["extracted_correctly"] is False and judgement["seq"] == 1
    assert JudgementStore(paths[1]).active("alice")["b2"]["comment"] == "cut mid-word"


BASE = {"annotator": "alice", "item_id": "a1", "extracted_correctly": True, "markers_removed": False}


@pytest.mark.parametrize(
    "body, content_type, status",
    [
        (b"{not json", "application/json", 400),
        (b"\xff\xfe", "application/json", 400),
        (b"[1, 2]", "application/json", 400),
        ({k: v for k, v in BASE.items() if k != "markers_removed"}, "application/json", 400),
        ({**BASE, "extracted_correctly": "yes"}, "application/json", 400),
        ({**BASE, "markers_removed": 1}, "application/json", 400),
        ({**BASE, "comment": 5}, "application/json", 400),
        ({**BASE, "method": "ours"}, "application/json", 400),
        ({**BASE, "item_id": "unknown"}, "application/json", 400),
        ({**BASE, "item_id": ["a1"]}, "application/json", 400),
        ({**BASE, "annotator": "../evil"}, "application/json", 400),
        ({**BASE, "annotator": ""}, "application/json", 400),
        (BASE, "text/plain", 415),  # what a cross-site form could send
        ({**BASE, "comment": "x" * MAX_JSON_BYTES}, "application/json", 413),
    ],
)
def test_bad_judgements_are_refused_and_nothing_is_stored(client, paths, body, content_type, status):
    answer_status, answer = client.json("POST", "/api/judgements", body, content_type=content_type)
    assert answer_status == status and answer["error"]
    assert JudgementStore(paths[1]).all_active() == []


def test_requests_from_other_sites_are_refused(client, paths):
    status, _ = client.json("POST", "/api/judgements", BASE, headers={"Origin": "http://evil.example"})
    assert status == 403 and JudgementStore(paths[1]).all_active() == []


def test_duplicate_is_a_conflict(client, paths):
    assert client.judge("alice", "a1", True, True)[0] == 201
    status, answer = client.judge("alice", "a1", False, False)
    assert status == 409 and "already judged" in answer["error"]
    assert JudgementStore(paths[1]).active("alice")["a1"]["extracted_correctly"] is True


def test_undo(client):
    client.judge("alice", "a1")
    client.judge("alice", "b2")
    status, answer = client.json("POST", "/api/undo", {"annotator": "alice"})
    assert status == 200 and answer["undone"]["item_id"] == "b2"
    assert client.json("GET", "/api/state?annotator=alice")[1]["next"]["item_id"] == "b2"
    client.json("POST", "/api/undo", {"annotator": "alice"})
    assert client.json("POST", "/api/undo", {"annotator": "alice"}) == (200, {"undone": None})
    assert client.json("POST", "/api/undo", {"annotator": "a b"})[0] == 400
    assert client.json("POST", "/api/undo", {})[0] == 400


def test_export_sheet_and_import(client, paths):
    client.judge("alice", "a1", True, False, comment="ok")
    status, raw, headers = client.call("GET", "/api/export.csv?annotator=alice")
    assert status == 200 and headers["Content-Type"].startswith("text/csv")
    assert headers["Content-Disposition"] == 'attachment; filename="judgements-alice.csv"'
    assert [r["item_id"] for r in csv.DictReader(io.StringIO(raw.decode()))] == ["a1"]

    _, raw, headers = client.call("GET", "/api/sheet.csv")
    rows = list(csv.DictReader(io.StringIO(raw.decode())))
    assert [r["item_id"] for r in rows] == ["a1", "b2", "c3", "d4"] and rows[0]["text"] == SCRIPT
    rows[0].update(extracted_correctly="yes", markers_removed="yes")
    rows[1].update(extracted_correctly="no", markers_removed="yes")

    def sheet(rows):
        out = io.StringIO()
        writer = csv.DictWriter(out, list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
        return out.getvalue().encode()

    bad = [*rows[:2], {**rows[2], "extracted_correctly": "perhaps", "markers_removed": "no"}]
    status, answer = client.json("POST", "/api/import?annotator=bob", sheet(bad), content_type="text/csv")
    assert status == 400 and "row 4" in answer["error"]
    assert JudgementStore(paths[1]).active("bob") == {}

    status, answer = client.json("POST", "/api/import?annotator=bob", sheet(rows), content_type="text/csv")
    assert (status, answer) == (200, {"imported": 2})
    assert list(JudgementStore(paths[1]).active("bob")) == ["a1", "b2"]

    unknown = [{**rows[0], "item_id": "zz"}]
    assert client.json("POST", "/api/import?annotator=carol", sheet(unknown), content_type="text/csv")[0] == 400
    assert client.json("POST", "/api/import?annotator=../x", sheet(rows), content_type="text/csv")[0] == 400

    _, raw, _ = client.call("GET", "/api/export.csv")
    assert sorted(r["annotator"] for r in csv.DictReader(io.StringIO(raw.decode()))) == ["alice", "bob", "bob"]


def test_requests_are_not_logged_to_stderr(client, capfd):
    client.call("GET", "/api/state?annotator=alice")
    client.call("GET", "/missing")
    assert capfd.readouterr().err == ""


def test_sample_must_have_unique_ids(tmp_path):
    rows = [{"item_id": "a", "position": 0, "text": "x", "paragraph": "p"}] * 2
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "s.parquet")
    with pytest.raises(ValueError, match="repeated"):
        make_server(tmp_path / "s.parquet", tmp_path / "j", port=0)
