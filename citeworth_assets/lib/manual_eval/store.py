"""Durable, append-only judgements of the manual evaluation (CiteWorth §3.3).

Each annotator has one JSON-lines file ``<store_dir>/<annotator>.jsonl`` of events, never rewritten:

* ``{"seq", "action": "judge", "annotator", "item_id", "extracted_correctly", "markers_removed", "comment", "at"}``
* ``{"seq", "action": "undo", "annotator", "undoes": <seq of the judgement it retracts>, "at"}``

``seq`` counts 1, 2, 3, ... per file and ``at`` is ISO-8601 UTC. An event is written with its newline in
one call and fsync'd before the call returns, so a judgement the annotator saw saved survives a killed
server or a power cut. A crash mid-write can only leave an unterminated last line: it was never
acknowledged, so reading ignores it and the next write cuts it off. The current judgements are the
replay of the events (a judge event not retracted by an undo).

Writes hold an exclusive ``flock`` on ``<store_dir>/.lock`` (reads a shared one), so several threads of
the web server, or a CLI import next to a running server, never interleave events or reuse a ``seq``.
``_none.jsonl`` is an empty file kept so that a glob over ``*.jsonl`` always matches something.

CSV exports and sheets are opened in spreadsheets: a text that starts like a formula is written with a
leading ``'`` (OWASP's advice against CSV injection), taken off again on import.
"""

from __future__ import annotations

import csv
import fcntl
import io
import json
import os
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

ANNOTATOR_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")  # a letter or digit first: no "..", no dot files
PLACEHOLDER = "_none"
MAX_COMMENT_CHARS = 10_000
EXPORT_COLUMNS = ("annotator", "item_id", "extracted_correctly", "markers_removed", "comment", "at")
ANSWER_FIELDS = ("extracted_correctly", "markers_removed", "comment")
SHEET_COLUMNS = ("item_id", "position", "text", "extracted_correctly", "markers_removed", "comment")
ANSWERS = {"yes": True, "true": True, "1": True, "y": True, "no": False, "false": False, "0": False, "n": False}


class DuplicateJudgement(ValueError):
    """The annotator already has an active judgement for the item (undo it first to change it)."""


def check_annotator(name: object) -> str:
    """Annotator names become file names, so only a safe alphabet is allowed."""
    if not isinstance(name, str) or not ANNOTATOR_PATTERN.fullmatch(name) or name == PLACEHOLDER:
        raise ValueError(
            f"bad annotator name {name!r}: use 1 to 64 of A-Z a-z 0-9 _ . -, starting with a letter or digit"
        )
    return name


def check_judgement(item_id: object, extracted_correctly: object, markers_removed: object, comment: object) -> None:
    """Strict types: a stray ``"no"`` string or ``0`` must not be stored as an answer."""
    if not isinstance(item_id, str) or not item_id or len(item_id) > 200:
        raise ValueError(f"item_id must be a non-empty string of at most 200 characters, got {item_id!r}")
    for name, value in (("extracted_correctly", extracted_correctly), ("markers_removed", markers_removed)):
        if not isinstance(value, bool):
            raise ValueError(f"{name} must be true or false, got {value!r}")
    if not isinstance(comment, str) or len(comment) > MAX_COMMENT_CHARS:
        raise ValueError(f"comment must be a string of at most {MAX_COMMENT_CHARS} characters")


def parse_answer(value: str | None, column: str) -> bool:
    """yes/no answers of a CSV sheet, as a spreadsheet user may write them."""
    answer = ANSWERS.get((value or "").strip().lower())
    if answer is None:
        raise ValueError(f"{column} must be yes or no, got {value!r}")
    return answer


def yes_no(value: bool) -> str:
    return "yes" if value else "no"


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def public(judgement: dict) -> dict:
    """A judge event as the rest of the platform sees it."""
    return {column: judgement[column] for column in EXPORT_COLUMNS}


class JudgementStore:
    """The judgement files of one sample (one rule set)."""

    def __init__(self, store_dir: str | os.PathLike) -> None:
        self.dir = Path(store_dir)
        self.dir.mkdir(parents=True, exist_ok=True)
        (self.dir / f"{PLACEHOLDER}.jsonl").touch()
        self._lock_path = self.dir / ".lock"
        self.problems: dict[str, None] = {}  # damaged lines met while reading, in order, once each

    # -- reading ------------------------------------------------------------------------------

    def path(self, annotator: str) -> Path:
        return self.dir / f"{check_annotator(annotator)}.jsonl"

    def annotators(self) -> list[str]:
        names = [path.stem for path in self.dir.glob("*.jsonl")]
        return sorted(name for name in names if ANNOTATOR_PATTERN.fullmatch(name) and name != PLACEHOLDER)

    def _events(self, annotator: str, strict: bool = True) -> tuple[list[dict], int]:
        """The complete events of a file and the byte length they cover (an unterminated tail is left out).

        A damaged line raises when ``strict`` (before writing: sequence numbers must be sure); readers pass
        ``strict=False``, and the line is skipped and named in :attr:`problems`, so one damaged file does not
        hide every other judgement.
        """
        try:
            data = self.path(annotator).read_bytes()
        except FileNotFoundError:
            return [], 0
        complete = data[: data.rfind(b"\n") + 1]
        events = []
        for number, line in enumerate(complete.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                event = json.loads(line)
                if not isinstance(event, dict) or not isinstance(event.get("seq"), int):
                    raise ValueError("not an event object")
            except ValueError as error:
                problem = f"{self.path(annotator)}:{number}: damaged event ({error}); fix the file by hand"
                if strict:
                    raise ValueError(problem) from error
                self.problems[problem] = None
                continue
            events.append(event)
        return events, len(complete)

    @staticmethod
    def _replay(events: list[dict]) -> dict[str, dict]:
        by_seq = {}
        for event in events:
            if event.get("action") == "judge":
                by_seq[event["seq"]] = event
            elif event.get("action") == "undo":
                by_seq.pop(event.get("undoes"), None)
        return {event["item_id"]: event for event in sorted(by_seq.values(), key=lambda e: e["seq"])}

    def active(self, annotator: str) -> dict[str, dict]:
        """``item_id -> judge event`` of the annotator's current judgements, in the order they were made."""
        with self._locked(fcntl.LOCK_SH):
            return self._replay(self._events(annotator, strict=False)[0])

    def all_active(self) -> list[dict]:
        """Every annotator's current judgements (annotator, item_id, answers, comment, at)."""
        with self._locked(fcntl.LOCK_SH):
            return [
                public(j)
                for name in self.annotators()
                for j in self._replay(self._events(name, strict=False)[0]).values()
            ]

    def problems_of(self, annotator: str | None = None) -> list[str]:
        """Damaged lines met so far (of one annotator's file, or of all)."""
        prefix = str(self.path(annotator)) + ":" if annotator else ""
        return [problem for problem in self.problems if problem.startswith(prefix)]

    # -- writing ------------------------------------------------------------------------------

    @contextmanager
    def _locked(self, kind: int) -> Iterator[None]:
        with open(self._lock_path, "a") as handle:
            fcntl.flock(handle, kind)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def _append(self, annotator: str, events: list[dict]) -> list[dict]:
        """Number the events, append them with one write and an fsync, and return them; hold the lock."""
        old, length = self._events(annotator)
        last = max((event["seq"] for event in old), default=0)
        stored = [{"seq": last + number, **event} for number, event in enumerate(events, start=1)]
        with open(self.path(annotator), "ab") as handle:
            handle.truncate(length)  # drop an unterminated line left by a crash: it was never acknowledged
            handle.write("".join(json.dumps(event, ensure_ascii=False) + "\n" for event in stored).encode())
            handle.flush()
            os.fsync(handle.fileno())
        if not old:
            self._fsync_dir()
        return stored

    def _fsync_dir(self) -> None:
        """A new file's directory entry must be durable too."""
        descriptor = os.open(self.dir, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)

    def judge(
        self, annotator: str, item_id: str, extracted_correctly: bool, markers_removed: bool, comment: str = ""
    ) -> dict:
        """Store one judgement durably and return its event; raises :class:`DuplicateJudgement`."""
        check_annotator(annotator)
        check_judgement(item_id, extracted_correctly, markers_removed, comment)
        event = {
            "action": "judge",
            "annotator": annotator,
            "item_id": item_id,
            "extracted_correctly": extracted_correctly,
            "markers_removed": markers_removed,
            "comment": comment,
            "at": now(),
        }
        with self._locked(fcntl.LOCK_EX):
            if item_id in self._replay(self._events(annotator)[0]):
                raise DuplicateJudgement(f"{annotator} has already judged item {item_id}; undo it first to change it")
            return self._append(annotator, [event])[0]

    def undo(self, annotator: str) -> dict | None:
        """Retract the annotator's latest current judgement and return it (None when there is none)."""
        check_annotator(annotator)
        with self._locked(fcntl.LOCK_EX):
            current = self._replay(self._events(annotator)[0])
            if not current:
                return None
            latest = max(current.values(), key=lambda j: j["seq"])
            self._append(annotator, [{"action": "undo", "annotator": annotator, "undoes": latest["seq"], "at": now()}])
        return latest

    # -- CSV ----------------------------------------------------------------------------------

    def export_csv(self, annotator: str | None = None) -> str:
        """Current judgements as CSV (one annotator, or all), answers as yes/no."""
        rows = [public(j) for j in self.active(annotator).values()] if annotator is not None else self.all_active()
        out = io.StringIO()
        writer = csv.DictWriter(out, EXPORT_COLUMNS)
        writer.writeheader()
        for row in rows:
            writer.writerow(
                {
                    **{column: spreadsheet_safe(value) for column, value in row.items()},
                    "extracted_correctly": yes_no(row["extracted_correctly"]),
                    "markers_removed": yes_no(row["markers_removed"]),
                }
            )
        return out.getvalue()

    def import_csv(self, text: str, annotator: str | None = None, known_items: set[str] | None = None) -> int:
        """Add judgements from an export or a filled annotation sheet; returns how many were new.

        All rows are checked before anything is written, so a bad row (named in the ValueError) imports
        nothing. Rows without answers are skipped (a partly filled sheet); rows identical to a current
        judgement are skipped too, so importing the same file twice is harmless.
        """
        if annotator is not None:
            check_annotator(annotator)
        reader = (
            {k: from_spreadsheet(v) if isinstance(v, str) else v for k, v in row.items()}
            for row in csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
        )
        header = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
        columns = set(header.fieldnames or ())
        missing = {"item_id", "extracted_correctly", "markers_removed"} - columns
        if missing:
            raise ValueError(f"CSV lacks the column(s) {', '.join(sorted(missing))}")
        if annotator is None and "annotator" not in columns:
            raise ValueError("CSV has no annotator column: name the annotator to import it for")
        with self._locked(fcntl.LOCK_EX):
            current: dict[str, dict[str, dict]] = {}
            new: dict[str, list[dict]] = {}
            for number, row in enumerate(reader, start=2):  # numbered as in a spreadsheet: row 1 is the header
                try:
                    judgement = self._csv_judgement(row, annotator, known_items)
                    if judgement is None:
                        continue
                    name = judgement["annotator"]
                    if name not in current:
                        current[name] = self._replay(self._events(name)[0])
                    before = current[name].get(judgement["item_id"])
                    if before is not None:
                        if any(before[field] != judgement[field] for field in ANSWER_FIELDS):
                            raise DuplicateJudgement(
                                f"{name} has already judged item {judgement['item_id']} differently"
                            )
                        continue
                    current[name][judgement["item_id"]] = judgement
                    new.setdefault(name, []).append(judgement)
                except ValueError as error:
                    raise type(error)(
                        f"CSV row {number} (item {row.get('item_id')!r}): {error}; nothing was imported"
                    ) from error
            for name, events in new.items():
                self._append(name, events)
        return sum(len(events) for events in new.values())

    @staticmethod
    def _csv_judgement(row: dict, annotator: str | None, known_items: set[str] | None) -> dict | None:
        if None in row:
            raise ValueError("more fields than columns")
        answers = [(row.get(column) or "").strip() for column in ("extracted_correctly", "markers_removed", "comment")]
        if not any(answers):
            return None
        name = (row.get("annotator") or "").strip() or annotator
        if annotator is not None and name != annotator:
            raise ValueError(f"row is for annotator {name!r}, not {annotator!r}")
        check_annotator(name)
        item_id = (row.get("item_id") or "").strip()
        if known_items is not None and item_id not in known_items:
            raise ValueError(f"unknown item {item_id!r}")
        judgement = {
            "action": "judge",
            "annotator": name,
            "item_id": item_id,
            "extracted_correctly": parse_answer(row["extracted_correctly"], "extracted_correctly"),
            "markers_removed": parse_answer(row["markers_removed"], "markers_removed"),
            "comment": row.get("comment") or "",
            "at": (row.get("at") or "").strip() or now(),
        }
        datetime.fromisoformat(judgement["at"])  # a ValueError names a malformed time
        check_judgement(item_id, judgement["extracted_correctly"], judgement["markers_removed"], judgement["comment"])
        return judgement


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: object) -> object:
    """A text that a spreadsheet would run as a formula (``=``, ``+``, ``-``, ``@``, tab, CR first) gets a leading
    ``'``, which spreadsheets show as text; :func:`from_spreadsheet` takes it off on import."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def from_spreadsheet(value: str | None) -> str | None:
    if value and value.startswith("'") and value[1:].startswith(FORMULA_STARTS):
        return value[1:]
    return value


def annotation_sheet_csv(sample_items: Iterable[dict]) -> str:
    """A blank sheet (in display order) for annotating in a spreadsheet and importing with ``import_csv``."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(SHEET_COLUMNS)
    for item in sorted(sample_items, key=lambda item: (item["position"], item["item_id"])):
        writer.writerow(
            [spreadsheet_safe(item["item_id"]), item["position"], spreadsheet_safe(item["text"]), "", "", ""]
        )
    return out.getvalue()
