"""A local web page for the blind manual evaluation (CiteWorth §3.3), standard library only.

The server reads the sample once and keeps only ``item_id``, ``position``, ``text`` and ``paragraph``:
the method and label columns never leave the Parquet file, so nothing the browser receives can
unblind the annotator. Every judgement goes straight to the :class:`JudgementStore` (fsync'd), so the
page keeps no state of its own and a reload resumes at the first item the annotator has not judged.

It binds to 127.0.0.1 by default. POSTs must carry a JSON (or CSV) content type and, when the browser
sends an ``Origin``, come from the page itself, so another web site open in the same browser cannot
submit judgements.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import re
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.manual_eval.store import (
    DuplicateJudgement,
    JudgementStore,
    annotation_sheet_csv,
    check_annotator,
)

pq = lazy_module("pyarrow.parquet")

log = logging.getLogger(__name__)

PAGE = Path(__file__).with_name("annotate_page.html")
PUBLIC_COLUMNS = ["item_id", "position", "text", "paragraph"]
JUDGEMENT_FIELDS = {"annotator", "item_id", "extracted_correctly", "markers_removed", "comment"}
MAX_JSON_BYTES = 64 * 1024
MAX_CSV_BYTES = 16 * 1024 * 1024
MAX_DRAINED_BYTES = 64 * 1024 * 1024
SOCKET_TIMEOUT_SECONDS = 20.0


def page_policy(page: bytes) -> str:
    """Content-Security-Policy allowing only the page's own inline script (by hash): no inline handlers, no loads."""
    script = re.search(rb"<script>(.*?)</script>", page, re.DOTALL).group(1)
    digest = base64.b64encode(hashlib.sha256(script).digest()).decode()
    return (
        f"default-src 'none'; script-src 'sha256-{digest}'; style-src 'unsafe-inline'; connect-src 'self'; "
        "img-src data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"
    )


def load_sample(sample_path: str | Path) -> list[dict]:
    """The public columns of the sample, in display order; the private ones are never read."""
    table = pq.read_table(sample_path, columns=PUBLIC_COLUMNS)
    items = sorted(table.to_pylist(), key=lambda item: (item["position"], item["item_id"]))
    seen = set()
    for item in items:
        if not item["item_id"] or item["item_id"] in seen or item["text"] is None or item["position"] is None:
            raise ValueError(f"{sample_path}: item {item['item_id']!r} is missing, repeated or lacks text/position")
        seen.add(item["item_id"])
        item["paragraph"] = item["paragraph"] or ""
    return items


class ApiError(Exception):
    """An error answered as ``{"error": message}`` with an HTTP status."""

    def __init__(self, status: HTTPStatus, message: str) -> None:
        super().__init__(message)
        self.status = status


class AnnotationServer(ThreadingHTTPServer):
    """The HTTP server with the sample and the store it serves."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], sample: list[dict], store: JudgementStore) -> None:
        super().__init__(address, AnnotationHandler)
        self.items = sample
        self.by_id = {item["item_id"]: item for item in sample}
        self.store = store
        self.page = PAGE.read_bytes()
        self.page_policy = page_policy(self.page)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}/"

    def state(self, annotator: str) -> dict:
        judged = self.store.active(annotator)
        upcoming = next((item for item in self.items if item["item_id"] not in judged), None)
        last = list(judged.values())[-1] if judged else None
        if last is not None:
            last = {**last, "position": self.by_id.get(last["item_id"], {}).get("position")}
        problems = self.store.problems_of(annotator)
        return {
            **({"problems": problems} if problems else {}),
            "annotator": annotator,
            "total": len(self.items),
            "done": sum(item_id in self.by_id for item_id in judged),
            "next": {key: upcoming[key] for key in ("item_id", "position", "text")} if upcoming else None,
            "last": last,
        }

    def allowed_hosts(self) -> set[str]:
        """``Host`` values of requests this server answers: loopback names with its port, and the address it is
        bound to. Any other name (a rebinding attacker's domain resolving to 127.0.0.1) is refused."""
        host, port = self.server_address[:2]
        names = {"127.0.0.1", "localhost", "[::1]"}
        if host not in ("", "0.0.0.0", "::"):
            names.add(f"[{host}]" if ":" in host else host)
        return {f"{name}:{port}" for name in names} | (names if port == 80 else set())


class AnnotationHandler(BaseHTTPRequestHandler):
    """Routes of the JSON API and the page."""

    server: AnnotationServer
    server_version = "citeworth-annotate"
    sys_version = ""
    timeout = SOCKET_TIMEOUT_SECONDS  # a client that stops sending (a Content-Length larger than its body) is dropped

    def log_message(self, format: str, *args) -> None:
        log.debug("%s %s", self.address_string(), format % args)

    # -- plumbing -----------------------------------------------------------------------------

    def send(self, status: HTTPStatus, body: bytes, content_type: str, headers: dict | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def send_json(self, status: HTTPStatus, payload: object) -> None:
        self.send(status, json.dumps(payload, ensure_ascii=False).encode(), "application/json; charset=utf-8")

    def send_csv(self, text: str, filename: str) -> None:
        headers = {"Content-Disposition": f'attachment; filename="{filename}"'}
        self.send(HTTPStatus.OK, text.encode(), "text/csv; charset=utf-8", headers)

    def query(self) -> dict[str, str]:
        return {key: values[-1] for key, values in parse_qs(urlsplit(self.path).query).items()}

    def annotator(self, value: object) -> str:
        try:
            return check_annotator(value)
        except ValueError as error:
            raise ApiError(HTTPStatus.BAD_REQUEST, str(error)) from None

    def read_body(self, limit: int) -> bytes:
        """Read the whole body first, even when refusing it, so the client always gets the answer."""
        value = (self.headers.get("Content-Length") or "0").strip()
        if not (value.isascii() and value.isdigit()):  # int() would take "-5", "+5", "1_000"
            raise ApiError(HTTPStatus.BAD_REQUEST, f"bad Content-Length {value[:20]!r}: a whole number of bytes")
        length = int(value)
        if length > limit:
            while 0 < length <= MAX_DRAINED_BYTES:
                chunk = self.rfile.read(min(length, 1 << 16))
                length = length - len(chunk) if chunk else 0
            raise ApiError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"request body over {limit} bytes")
        body = self.rfile.read(length)
        origin = self.headers.get("Origin")
        if origin is not None and urlsplit(origin).netloc != self.headers.get("Host"):
            raise ApiError(HTTPStatus.FORBIDDEN, "requests from other web sites are refused")
        return body

    def body(self, content_type: str) -> bytes:
        if (self.headers.get("Content-Type") or "").split(";")[0].strip().lower() != content_type:
            raise ApiError(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, f"send the body as {content_type}")
        return self.raw_body

    def json_body(self) -> dict:
        try:
            payload = json.loads(self.body("application/json"))
        except (ValueError, UnicodeDecodeError):
            raise ApiError(HTTPStatus.BAD_REQUEST, "the body is not valid JSON") from None
        if not isinstance(payload, dict):
            raise ApiError(HTTPStatus.BAD_REQUEST, "the body must be a JSON object")
        return payload

    def dispatch(self, routes: dict) -> None:
        path = urlsplit(self.path).path
        try:
            if (self.headers.get("Host") or "").lower() not in self.server.allowed_hosts():
                raise ApiError(HTTPStatus.FORBIDDEN, "unknown Host: open the page at http://127.0.0.1:<port>/")
            if self.command == "POST":
                self.raw_body = self.read_body(MAX_CSV_BYTES if path == "/api/import" else MAX_JSON_BYTES)
            route = routes.get(path)
            if route is None:
                raise ApiError(HTTPStatus.NOT_FOUND, f"no such path {path}")
            route()
        except ApiError as error:
            self.send_json(error.status, {"error": str(error)})
        except TimeoutError:
            self.close_connection = True  # the socket timed out: nothing more can be said to this client
        except Exception:
            log.exception("annotation server failed on %s %s", self.command, path)
            self.send_json(HTTPStatus.INTERNAL_SERVER_ERROR, {"error": "internal error; see the server log"})

    def do_GET(self) -> None:
        self.dispatch(
            {
                "/": self.get_page,
                "/api/state": self.get_state,
                "/api/paragraph": self.get_paragraph,
                "/api/export.csv": self.get_export,
                "/api/sheet.csv": self.get_sheet,
            }
        )

    def do_POST(self) -> None:
        self.dispatch(
            {"/api/judgements": self.post_judgement, "/api/undo": self.post_undo, "/api/import": self.post_import}
        )

    # -- routes -------------------------------------------------------------------------------

    def get_page(self) -> None:
        self.send(
            HTTPStatus.OK,
            self.server.page,
            "text/html; charset=utf-8",
            {"Content-Security-Policy": self.server.page_policy},
        )

    def get_state(self) -> None:
        self.send_json(HTTPStatus.OK, self.server.state(self.annotator(self.query().get("annotator"))))

    def get_paragraph(self) -> None:
        item_id = self.query().get("item_id")
        item = self.server.by_id.get(item_id)
        if item is None:
            raise ApiError(HTTPStatus.NOT_FOUND, f"unknown item {item_id!r}")
        self.send_json(HTTPStatus.OK, {"item_id": item_id, "paragraph": item["paragraph"]})

    def get_export(self) -> None:
        annotator = self.query().get("annotator")
        if annotator is not None:
            self.annotator(annotator)
        text = self.server.store.export_csv(annotator)
        for problem in self.server.store.problems_of(annotator):
            log.warning("export skips %s", problem)
        self.send_csv(text, f"judgements-{annotator or 'all'}.csv")

    def get_sheet(self) -> None:
        self.send_csv(annotation_sheet_csv(self.server.items), "annotation-sheet.csv")

    def post_judgement(self) -> None:
        payload = self.json_body()
        unknown = set(payload) - JUDGEMENT_FIELDS
        missing = JUDGEMENT_FIELDS - {"comment"} - set(payload)
        if unknown or missing:
            raise ApiError(
                HTTPStatus.BAD_REQUEST, f"missing fields {sorted(missing)}, unknown fields {sorted(unknown)}"
            )
        annotator = self.annotator(payload["annotator"])
        if not isinstance(payload["item_id"], str) or payload["item_id"] not in self.server.by_id:
            raise ApiError(HTTPStatus.BAD_REQUEST, f"unknown item {payload['item_id']!r}")
        try:
            judgement = self.server.store.judge(
                annotator,
                payload["item_id"],
                payload["extracted_correctly"],
                payload["markers_removed"],
                payload.get("comment", ""),
            )
        except DuplicateJudgement as error:
            raise ApiError(HTTPStatus.CONFLICT, str(error)) from None
        except ValueError as error:
            raise ApiError(HTTPStatus.BAD_REQUEST, str(error)) from None
        self.send_json(HTTPStatus.CREATED, judgement)

    def post_undo(self) -> None:
        payload = self.json_body()
        undone = self.server.store.undo(self.annotator(payload.get("annotator")))
        self.send_json(HTTPStatus.OK, {"undone": undone})

    def post_import(self) -> None:
        annotator = self.query().get("annotator")
        if annotator is not None:
            self.annotator(annotator)
        try:
            text = self.body("text/csv").decode("utf-8-sig")
            imported = self.server.store.import_csv(text, annotator, known_items=set(self.server.by_id))
        except (ValueError, UnicodeDecodeError) as error:
            raise ApiError(HTTPStatus.BAD_REQUEST, str(error)) from None
        self.send_json(HTTPStatus.OK, {"imported": imported})


def make_server(
    sample_path: str | Path, store_dir: str | Path, host: str = "127.0.0.1", port: int = 8765
) -> AnnotationServer:
    """A ready (not yet serving) server; ``port=0`` picks a free port, see ``server.url``."""
    return AnnotationServer((host, port), load_sample(sample_path), JudgementStore(store_dir))


def serve(sample_path: str | Path, store_dir: str | Path, host: str = "127.0.0.1", port: int = 8765) -> None:
    """Serve the page until Ctrl-C."""
    with make_server(sample_path, store_dir, host, port) as server:
        print(
            f"annotate at {server.url}  ({len(server.items)} items; judgements in {server.store.dir}; Ctrl-C to stop)"
        )
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            print("stopped; every judgement is already saved")
