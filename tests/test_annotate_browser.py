"""End to end: the annotation page in real headless Chromium, driven by the keyboard only."""

import os
import threading
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from citeworth_assets.lib.manual_eval.server import make_server
from citeworth_assets.lib.manual_eval.store import JudgementStore

CHROMIUM = Path("/usr/bin/chromium")
SCRIPT = "We show <script>alert(1)</script> that it <b>works</b>."
TEXTS = [SCRIPT, "Second sentence.", "Third sentence.", "Fourth sentence.", "Fifth sentence."]

pytestmark = [
    # CI installs Chromium (make test); there a missing browser is a failure, not a skip.
    pytest.mark.skipif(
        not CHROMIUM.exists() and not os.environ.get("CI"),
        reason=f"no Chromium at {CHROMIUM} (apt-get install chromium)",
    ),
    pytest.mark.timeout(60),
    pytest.mark.slow,
]


@pytest.fixture
def served(tmp_path):
    rows = [
        {
            "item_id": f"id{i}",
            "position": i,
            "text": text,
            "paragraph": f"Before. {text} After.",
            "method": "m",
            "label": "l",
        }
        for i, text in enumerate(TEXTS)
    ]
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "part-0.parquet")
    server = make_server(tmp_path / "part-0.parquet", tmp_path / "judgements", port=0)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture
def page():
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        try:
            page = browser.new_page()
            page.set_default_timeout(5000)
            yield page
        finally:
            browser.close()


def test_keyboard_annotation_undo_and_reload(served, page):
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    console_errors = []  # a CSP violation or a script error shows up here
    page.on("console", lambda message: message.type == "error" and console_errors.append(message.text))
    page.on("pageerror", lambda error: console_errors.append(str(error)))
    page.goto(served.url + "?annotator=alice")
    progress, sentence = page.locator("#progress"), page.locator("#sentence")
    progress.filter(has_text="0 / 5").wait_for()

    # markup in a paper is shown as text and never runs
    assert sentence.text_content() == SCRIPT
    assert sentence.locator("script, b").count() == 0
    page.keyboard.press("p")
    page.locator("#paragraph mark").filter(has_text="alert(1)").wait_for()
    assert page.locator("#paragraph script").count() == 0
    page.keyboard.press("p")
    assert page.locator("#paragraph").is_hidden()

    # three judgements by keyboard only; the second one with a comment
    page.keyboard.press("1")
    page.keyboard.press("4")
    page.keyboard.press("Enter")
    progress.filter(has_text="1 / 5").wait_for()
    assert sentence.text_content() == TEXTS[1]

    page.keyboard.press("2")
    page.keyboard.press("3")
    page.keyboard.press("c")
    page.keyboard.type("cut 1234")  # digits typed in the comment are text, not answers
    page.keyboard.press("Escape")
    assert page.locator("#comment").input_value() == "cut 1234"
    assert page.locator("button[aria-pressed=true]").count() == 2
    page.keyboard.press("Enter")
    progress.filter(has_text="2 / 5").wait_for()

    page.keyboard.press("Enter")  # not both answered: nothing is sent
    page.keyboard.press("1")
    page.keyboard.press("3")
    page.keyboard.press("Enter")
    progress.filter(has_text="3 / 5").wait_for()
    assert "#2" in page.locator("#last").text_content()

    page.keyboard.press("u")
    progress.filter(has_text="2 / 5").wait_for()
    assert sentence.text_content() == TEXTS[2]

    page.reload()
    progress.filter(has_text="2 / 5").wait_for()
    assert sentence.text_content() == TEXTS[2]
    assert page.locator("#who").text_content() == "alice"

    judged = JudgementStore(served.store.dir).active("alice")
    assert [(j["item_id"], j["extracted_correctly"], j["markers_removed"], j["comment"]) for j in judged.values()] == [
        ("id0", True, False, ""),
        ("id1", False, True, "cut 1234"),
    ]
    assert dialogs == [] and console_errors == []
    assert page.locator("#error").text_content() == ""
