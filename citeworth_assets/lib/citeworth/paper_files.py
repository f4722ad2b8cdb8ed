"""Reading single papers from JSON files: S2ORC pdf_parses records or CORD-19 documents (same body schema)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from citeworth_assets.lib.papers import PaperInput
from citeworth_assets.lib.read_issues import IssueLog
from citeworth_assets.lib.s2orc.records import RecordReporter, paragraph_rows


def _files(paths: list[Path]) -> Iterator[Path]:
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*.json") if p.is_file())
        else:
            yield path


def read_paper_files(paths: list[Path], problems: list[str]) -> Iterator[PaperInput]:
    """Papers of the given files and folders; an unreadable file is reported in ``problems`` and skipped."""
    for path in _files(paths):
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            problems.append(f"{path}: not a JSON paper: {error}")
            continue
        except RecursionError:
            problems.append(f"{path}: not a JSON paper: nested too deeply")
            continue
        if not isinstance(record, dict) or not isinstance(record.get("body_text"), list):
            problems.append(f"{path}: no body_text list; expected a pdf_parses record or a CORD-19 document")
            continue
        paper_id = str(record.get("paper_id") or path.stem)
        log = IssueLog()
        rows = list(paragraph_rows(record, RecordReporter(log, str(path), 1, 0, paper_id)))
        problems.extend(str(issue) for issue in log.issues)
        provenance = {"release": None, "shard": None, "source_file": path.name, "line": 1, "byte_offset": 0}
        yield PaperInput(paper_id, rows, None, provenance)
