"""Defect 12 of issue 10: Host allowlist, socket timeout, one damaged judgement file, restricted annotator names;
issue 24 item 10: a bad Content-Length is a 400, formula-like comments are neutralised in CSV."""

import csv
import http.client
import io
import json
import socket
import threading
import time

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from citeworth_assets.lib.manual_eval import server as server_module
from citeworth_assets.lib.manual_eval.server import make_server
from citeworth_assets.lib.manual_eval.store import check_annotator


def write_sample(path):
    rows = [
        {"item_id": i, "position": n, "text": f"Sentence {i}.", "paragraph": "P.", "method": "m", "label": "l"}
        for n, i in enumerate(["a1", "b2", "c3"])
    ]
    pq.write_table(pa.Table.from_pylist(rows), path)
    return path


@pytest.fixture
def running(tmp_path, monkeypatch):
    monkeypatch.setattr(server_module.AnnotationHandler, "timeout", 0.5)
    server = make_server(write_sample(tmp_path / "part-0.parquet"), tmp_path / "judgements", port=0)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


def get(server, path, host=None, method="GET", body=None):
    connection = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=5)
    headers = {"Host": host} if host is not None else {}
    if body is not None:
        headers["Content-Type"] = "application/json"
    connection.request(method, path, body=body, headers=headers)
    response = connection.getresponse()
    return response.status, response.read()


def test_only_loopback_host_names_are_answered(running):
    port = running.server_address[1]
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"):
        assert get(running, "/api/export.csv", host)[0] == 200, host
    for host in (f"evil.example:{port}", "127.0.0.1", f"localhost:{port + 1}", ""):
        assert get(running, "/api/export.csv", host)[0] == 403, host
    body = json.dumps({"annotator": "eve", "item_id": "a1", "extracted_correctly": True, "markers_removed": True})
    assert get(running, "/api/judgements", f"rebound.example:{port}", "POST", body)[0] == 403
    assert running.store.all_active() == []


def test_a_client_that_stalls_mid_body_is_dropped(running):
    port = running.server_address[1]
    with socket.create_connection(("127.0.0.1", port)) as stalled:
        stalled.sendall(
            f"POST /api/judgements HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            "Content-Length: 1000\r\n\r\n{".encode()
        )
        started = time.monotonic()
        stalled.settimeout(5)
        assert stalled.recv(1024) == b""  # the server closes the connection once its timeout passes
        assert time.monotonic() - started < 4


def test_one_damaged_judgement_file_does_not_break_the_others(running, tmp_path):
    store = running.store
    store.judge("alice", "a1", True, True)
    store.judge("bob", "b2", False, True)
    path = store.path("bob")
    path.write_text("{broken\n" + path.read_text())
    port = running.server_address[1]
    status, body = get(running, "/api/export.csv", f"127.0.0.1:{port}")
    assert status == 200 and b"alice,a1" in body and b"bob,b2" in body
    status, body = get(running, "/api/state?annotator=bob", f"127.0.0.1:{port}")
    state = json.loads(body)
    assert status == 200 and state["done"] == 1 and "bob.jsonl:1" in state["problems"][0]
    status, body = get(running, "/api/state?annotator=alice", f"127.0.0.1:{port}")
    assert status == 200 and "problems" not in json.loads(body)


@pytest.mark.parametrize("name", ["..", ".", ".hidden", "-x", "a/b", ""])
def test_annotator_names_cannot_be_dot_paths(name):
    with pytest.raises(ValueError):
        check_annotator(name)
    assert check_annotator("anna.b-1_x") == "anna.b-1_x"


def raw_post(server, length: str, body: bytes = b"") -> bytes:
    port = server.server_address[1]
    with socket.create_connection(("127.0.0.1", port)) as client:
        client.sendall(
            f"POST /api/judgements HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {length}\r\nConnection: close\r\n\r\n".encode()
            + body
        )
        client.settimeout(5)
        answer = b""
        while chunk := client.recv(4096):
            answer += chunk
    return answer


@pytest.mark.parametrize("length", ["-5", "abc", "+3", "1_0", " -1"])
def test_a_negative_or_non_numeric_content_length_is_a_400(running, length):
    answer = raw_post(running, length, b"{}")
    assert answer.startswith(b"HTTP/1.0 400") or answer.startswith(b"HTTP/1.1 400"), answer[:80]
    assert b"Content-Length" in answer and b"Traceback" not in answer
    assert running.store.all_active() == []


@pytest.mark.parametrize("comment", ['=HYPERLINK("http://x")', "+1+1", "-2+3", "@SUM(A1)", "\t=1", "\r=1"])
def test_comments_that_look_like_formulas_are_neutralised_in_the_csv_and_come_back_on_import(running, comment):
    body = json.dumps(
        {"annotator": "eve", "item_id": "a1", "extracted_correctly": True, "markers_removed": False, "comment": comment}
    )
    assert get(running, "/api/judgements", method="POST", body=body)[0] == 201
    status, csv_bytes = get(running, "/api/export.csv?annotator=eve")
    assert status == 200
    (row,) = list(csv.DictReader(io.StringIO(csv_bytes.decode())))
    assert row["comment"] == "'" + comment  # a spreadsheet shows it as text, never runs it
    assert not any(str(v).startswith(("=", "+", "-", "@")) for v in row.values())
    store = running.store
    store.undo("eve")
    assert store.import_csv(csv_bytes.decode(), "eve") == 1
    assert store.active("eve")["a1"]["comment"] == comment
