"""One submission from its archive to an unarXive 2022 record and an outcome (Saier 2019 §4.2.3).

Steps: unpack safely, find the main file, flatten it, take the bibliography out (inline or ``.bbl``),
normalise citation commands to tokens, read with pandoc (salvaging what it rejects), assemble the paper.
Every submission ends in one outcome: ``converted`` or the reason it was not (see :data:`OUTCOMES`).
"""

from __future__ import annotations

import hashlib
import re
import signal
import subprocess
import threading
import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass

from citeworth_assets.lib.arxiv_sources import archive, flatten, macros, pandoc, rescue
from citeworth_assets.lib.arxiv_sources.assemble import BIB_HEADING, Builder, _labels
from citeworth_assets.lib.arxiv_sources.bibliography import BIBLIOGRAPHY_MACROS, extract_bibliography
from citeworth_assets.lib.arxiv_sources.citations import normalise_citations
from citeworth_assets.lib.arxiv_sources.front_matter import front_matter
from citeworth_assets.lib.arxiv_sources.paper import paper_record

OUTCOMES = {
    "converted": "converted to a paper",
    "pdf_only": "the submission is a PDF, no LaTeX source",
    "no_tex": "the archive holds no TeX file",
    "corrupt_archive": "the gzip or tar cannot be read, or it breaks a size/ratio limit (decompression bomb)",
    "no_main_file": "no TeX file with \\documentclass and \\begin{document}",
    "conversion_failed": "the LaTeX reader rejected the document even after salvage",
    "timeout": "conversion ran past the per-submission timeout",
    "worker_died": "the worker process converting it died (killed for memory, a crash in the LaTeX reader)",
}
DEFAULT_TIMEOUT = 120.0
COMMAND = re.compile(r"\\[A-Za-z]+")


class SubmissionTimeout(Exception):
    pass


@dataclass
class Outcome:
    """What became of one submission (one row of the outcomes table)."""

    arxiv_id: str
    source_file: str
    member: str
    outcome: str
    detail: str | None = None
    seconds: float = 0.0
    main_file: str | None = None
    bib_source: str | None = None
    salvage: str | None = None
    n_paragraphs: int = 0
    n_markers: int = 0
    n_markers_linked: int = 0
    n_bib_entries: int = 0
    n_citation_keys: int = 0
    n_skipped_members: int = 0
    n_passed_through: int = 0  # unknown commands/environments passed through to rescue citations

    def row(self) -> dict:
        return asdict(self)

    def note(self, text: str) -> None:
        """Add to ``detail`` (salvage, skipped members, dropped macros: each kept)."""
        self.detail = f"{self.detail}; {text}" if self.detail else text


@contextmanager
def time_limit(seconds: float):
    """Raise SubmissionTimeout after ``seconds`` (a real-time alarm where this is the main thread)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def expired(signum, frame):
        raise SubmissionTimeout(f"over {seconds:.0f} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _unpack(raw: archive.RawSubmission, limits: archive.Limits) -> archive.Submission:
    if raw.folder is not None:
        from pathlib import Path

        return archive.read_folder_submission(Path(raw.folder), limits)
    if raw.data is None:
        raise archive.CorruptArchive(f"member larger than {limits.max_total_bytes} bytes")
    return archive.read_gz_submission(raw.arxiv_id, raw.data, limits)


def _document(submission: archive.Submission, outcome: Outcome):
    """The flattened document split for the reader, or None with the outcome's reason set."""
    texts = {p: flatten.strip_comments(flatten.decode(b)) for p, b in submission.files.items()}
    if not any(p.lower().endswith(flatten.TEX_SUFFIXES[:3]) for p in texts) and submission.kind != "single":
        outcome.outcome = "no_tex"
        return None
    if submission.kind == "single" and not COMMAND.search(next(iter(texts.values()), "")):
        outcome.outcome = "no_tex"
        return None
    main = flatten.find_main_file(texts)
    if main is None:
        outcome.outcome = "no_main_file"
        return None
    outcome.main_file = main
    cut: list[str] = []
    flat, looping = macros.drop_recursive_definitions(flatten.flatten(main, texts, cut=cut))
    if cut:  # the text of those files is missing from the paper: say so in its outcome
        outcome.note(f"inclusions not expanded: {len(cut)} ({'; '.join(cut[:3])})")
    if looping:
        outcome.note(f"recursive macros dropped: {' '.join(looping[:5])}")
    begin = flatten.BEGIN_DOCUMENT.search(flat)
    end = flatten.END_DOCUMENT.search(flat, begin.end()) if begin else None
    preamble, body = flat[: begin.start()], flat[begin.end() : end.start() if end else len(flat)]
    preamble, body = front_matter(preamble, body)
    body, bibliography = extract_bibliography(body, main, texts)
    outcome.bib_source = bibliography.source
    body, citations = normalise_citations(rescue.readable_environments(body))
    entries = "\n\n".join(
        f"CWBIBENTRY{index:05d}X {' '.join(entry.latex.split())}" for index, entry in enumerate(bibliography.entries)
    )
    body = f"{body}\n\n\\section*{{{BIB_HEADING}}}\n\n{entries}\n"
    provided = f"{bibliography.preamble}\n{rescue.BOXES}\n{BIBLIOGRAPHY_MACROS}"
    return f"{preamble}\n{provided}", body, bibliography, citations


def _convert(
    raw: archive.RawSubmission, outcome: Outcome, deadline, limits: archive.Limits, rescue_citations: bool
) -> dict | None:
    submission = _unpack(raw, limits)
    outcome.n_skipped_members = len(submission.skipped)
    if submission.skipped:
        outcome.detail = "skipped members: " + "; ".join(submission.skipped[:5])
    if submission.kind == "pdf":
        outcome.outcome = "pdf_only"
        return None
    document = _document(submission, outcome)
    if document is None:
        return None
    preamble, body, bibliography, citations = document
    outcome.n_citation_keys = len(citations.keys)
    tree, salvage = pandoc.read_with_salvage(preamble, body, deadline)
    missing = set(range(len(citations.keys))) - rescue.present_tokens(tree)
    if missing and rescue_citations:
        definitions = rescue.pass_through_definitions(body, missing)
        rescued_body = rescue.tabulars_as_text(body, missing)
        if definitions or rescued_body != body:
            second, second_salvage = pandoc.read_with_salvage(f"{preamble}\n{definitions}", rescued_body, deadline)
            if len(rescue.present_tokens(second)) > len(citations.keys) - len(missing):
                tree, salvage = second, second_salvage
                outcome.n_passed_through = definitions.count("\n") + bool(definitions) + (rescued_body != body)
    outcome.salvage = salvage.method
    if salvage.repairs or salvage.sections_dropped:
        outcome.note(f"salvage: {', '.join(salvage.repairs[:5])}; {salvage.sections_dropped} sections dropped")
    builder = Builder(raw.arxiv_id, citations)
    _labels(tree.get("blocks", []), builder.labels)
    builder.blocks(tree.get("blocks", []))
    builder.emit("paragraph", "")
    source_hash = hashlib.sha1(raw.data or b"").hexdigest() if raw.data is not None else None
    record = paper_record(raw.arxiv_id, tree, builder, bibliography, raw.member.rsplit("/", 1)[-1], source_hash)
    markers = [span["ref_id"] for p in record["body_text"] for span in p["cite_spans"]]
    outcome.outcome = "converted"
    outcome.n_paragraphs = len(record["body_text"])
    outcome.n_markers = len(markers)
    outcome.n_markers_linked = sum(1 for m in markers if m in record["bib_entries"])
    outcome.n_bib_entries = len(record["bib_entries"])
    if builder.read_cites:  # why a paper can have more markers than citation commands in its body
        outcome.note(f"{builder.read_cites} markers from citations inside macros")
    return record


def convert_submission(
    raw: archive.RawSubmission,
    timeout: float = DEFAULT_TIMEOUT,
    limits: archive.Limits = archive.DEFAULT_LIMITS,
    rescue_citations: bool = True,
) -> tuple[Outcome, dict | None]:
    """The outcome of one submission and its paper record (None unless converted); never raises.
    ``rescue_citations=False`` reads once, as the thesis's pipeline did (the rescue pass is measured against it)."""
    outcome = Outcome(raw.arxiv_id, raw.source, raw.member, "conversion_failed")
    started = time.perf_counter()

    def deadline() -> float:
        left = timeout - (time.perf_counter() - started)
        if left <= 0:
            raise SubmissionTimeout(f"over {timeout:.0f} s")
        return left

    record = None
    try:
        with time_limit(timeout + 1):
            record = _convert(raw, outcome, deadline, limits, rescue_citations)
    except archive.CorruptArchive as error:
        outcome.outcome, outcome.detail = "corrupt_archive", str(error)
    except (SubmissionTimeout, subprocess.TimeoutExpired):
        outcome.outcome, outcome.detail = "timeout", f"over {timeout:.0f} s"
    except pandoc.ReaderError as error:
        outcome.outcome, outcome.detail = "conversion_failed", str(error)[:300]
    except Exception as error:  # a bug or a hostile input must cost only this submission
        outcome.outcome, outcome.detail = "conversion_failed", f"{type(error).__name__}: {error}"[:300]
    outcome.seconds = round(time.perf_counter() - started, 3)
    return outcome, record
