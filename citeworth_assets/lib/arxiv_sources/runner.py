"""Converting many submissions: spread over worker processes, written as one unarXive 2022 JSON-lines file
(gzipped, deterministic bytes) plus one outcome row per submission, both published atomically."""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from pathlib import Path

from citeworth_assets.lib.arxiv.dump_files import CONVERTED_SUFFIX as SUFFIX
from citeworth_assets.lib.arxiv.dump_files import UNARXIVE_2022 as RELEASE_FOLDER
from citeworth_assets.lib.arxiv_sources.archive import DEFAULT_LIMITS, Limits, RawSubmission
from citeworth_assets.lib.arxiv_sources.convert import DEFAULT_TIMEOUT, Outcome, convert_submission
from citeworth_assets.lib.worker_pool import DIED, ordered_map


def converted_name(source: Path) -> str:
    """``arXiv_src_2101_001.tar`` -> ``arXiv_src_2101_001.latex.jsonl.gz`` (a name unarXive's own files never
    have, so a converted dump never shadows an unarXive 2022 file of the same month)."""
    name = source.name
    for suffix in (".tar.gz", ".tgz", ".tar"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
            break
    return name + SUFFIX


def converted_path(root: Path, source: Path) -> Path:
    return root / RELEASE_FOLDER / converted_name(source)


def _convert_with(timeout: float, limits: Limits, rescue: bool, raw: RawSubmission) -> tuple[dict, str | None]:
    """Worker body: the outcome row and the record as JSON (serialised in the worker, not the parent)."""
    outcome, record = convert_submission(raw, timeout, limits, rescue)
    return outcome.row(), (json.dumps(record, ensure_ascii=False) if record is not None else None)


def convert_all(
    submissions: Iterable[RawSubmission],
    workers: int = 1,
    timeout: float = DEFAULT_TIMEOUT,
    limits: Limits = DEFAULT_LIMITS,
    rescue_citations: bool = True,
) -> Iterator[tuple[dict, str | None]]:
    """(outcome row, record JSON or None) per submission, in input order. With ``workers`` > 1, at most twice
    that many submissions are in flight, so memory stays bounded whatever the dump's size; a worker that dies or
    stops answering costs only its submission (see :mod:`~citeworth_assets.lib.worker_pool`).
    ``rescue_citations``: see :func:`convert_submission`."""
    work = partial(_convert_with, timeout, limits, rescue_citations)
    if workers <= 1:
        return map(work, submissions)
    return ordered_map(work, submissions, workers, timeout + 60, partial(_lost, timeout + 60))


def _lost(seconds: float, raw: RawSubmission, why: str) -> tuple[dict, None]:
    """The outcome of a submission whose worker died or gave no answer in ``seconds``."""
    if why == DIED:
        outcome = Outcome(raw.arxiv_id, raw.source, raw.member, DIED, "the worker process converting it died")
    else:
        outcome = Outcome(raw.arxiv_id, raw.source, raw.member, "timeout", "no answer from the worker process")
        outcome.seconds = seconds
    return outcome.row(), None


def write_converted(
    results: Iterable[tuple[dict, str | None]], target: Path, on_outcome: Callable[[dict], None] | None = None
) -> list[dict]:
    """Write the records to ``target`` (gzip without a timestamp, so reruns give the same bytes) through a
    temporary file renamed at the end; return every outcome row."""
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(f".{target.name}.{os.getpid()}.partial")
    outcomes = []
    try:
        with open(temporary, "wb") as raw_file, gzip.GzipFile(fileobj=raw_file, mode="wb", mtime=0, filename="") as gz:
            for row, record in results:
                outcomes.append(row)
                if on_outcome:
                    on_outcome(row)
                if record is not None:
                    gz.write(record.encode("utf-8") + b"\n")
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)
    return outcomes


def outcome_columns() -> list[str]:
    return list(Outcome("", "", "", "").row())
