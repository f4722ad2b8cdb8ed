"""unarXive 2020: one plain-text file per paper (``<arxiv id>.txt``) and the ``refs.db`` bibliography.

A dump is a folder or a tarball (any compression ``tarfile`` reads) of text files, with ``refs.db``
(SQLite table ``bibitem(uuid, citing_mag_id, cited_mag_id, citing_arxiv_id, cited_arxiv_id,
bibitem_string)``) beside or inside it. Papers are read one at a time, streaming the tarball.

Text is decoded as the published tools read it (Python's ``open()``: UTF-8, universal newlines), so
that marker positions and contexts agree with theirs. Damage is counted, never fatal: invalid UTF-8
(replaced by U+FFFD), a truncated or corrupt tarball (papers before the damage are kept), a file with
no citation marker, a marker whose uuid is not in ``refs.db``, a file name that is no arXiv id, a
``refs.db`` that is not SQLite, lacks the bibitem table or its columns, or is empty (the papers are
kept, without references), a MAG id that is not a number, a symlink that leads out of the dump root
(never followed).

Paragraphs: the text files mark no paragraph ends except blank lines (Tralics wraps lines), so a
paragraph row is a block of non-blank lines; the context extraction works on the whole text anyway.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
import tarfile
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from citeworth_assets.lib.dump_root import followed_out
from citeworth_assets.lib.identifiers import NEW_STYLE, OLD_STYLE, find_arxiv_ids, find_dois, normalise_arxiv_id
from citeworth_assets.lib.read_issues import IssueLog, ReadIssue

RELEASE = "unarxive-2020"
# Any {{cite:...}} marker; the published context code only recognises uuid4 ones (contexts.CITE_PATT).
MARKER = re.compile(r"\{\{cite:([^{}\s]*)\}\}")
KEPT_WITHOUT_REFERENCES = ": papers kept without references"
BIBITEM_COLUMNS = ("uuid", "citing_mag_id", "cited_mag_id", "citing_arxiv_id", "cited_arxiv_id", "bibitem_string")


@dataclass
class PaperFile:
    """One ``.txt`` member of a dump: where it came from and its bytes."""

    name: str  # file name, e.g. hep-th9901001.txt
    source_file: str
    member: str | None
    data: bytes


@dataclass
class Paper:
    """A read paper: its text as the published tools see it, and its lake rows."""

    arxiv_id: str  # as in the file name and refs.db (hep-th9901001)
    text: str
    row: dict
    paragraphs: list[dict] = field(default_factory=list)


def _is_txt(name: str) -> bool:
    return name.endswith(".txt") and not Path(name).name.startswith(".")


def iter_paper_files(source: str | Path, log: IssueLog, root: str | Path | None = None) -> Iterator[PaperFile]:
    """The ``.txt`` files of a folder (sorted by name) or a tarball (in archive order), streaming; a file that
    leads out of the folder and the dump root ``root`` is reported and not read."""
    source = Path(source)
    if source.is_dir():
        for path in sorted(p for p in source.iterdir() if _is_txt(p.name)):
            if followed_out(path, source, root, log):
                continue
            try:
                data = path.read_bytes()
            except OSError as error:
                log.add(ReadIssue(str(path), None, None, "unreadable_file", str(error)))
                continue
            yield PaperFile(path.name, str(path), None, data)
        return
    try:
        archive = tarfile.open(source, mode="r|*")
    except (tarfile.TarError, OSError, EOFError) as error:
        log.add(ReadIssue(str(source), None, None, "unreadable_tarball", str(error)))
        return
    with archive:
        try:
            for member in archive:
                if not member.isfile() or not _is_txt(member.name):
                    continue
                handle = archive.extractfile(member)
                data = handle.read() if handle else b""
                if len(data) < member.size:
                    raise EOFError(f"member {member.name} is cut at {len(data)} of {member.size} bytes")
                yield PaperFile(Path(member.name).name, str(source), member.name, data)
        except (tarfile.TarError, OSError, EOFError, ValueError) as error:  # zlib/bz2/lzma errors are OSError/EOFError
            log.add(ReadIssue(str(source), None, None, "truncated_tarball", f"reading stopped: {error}"))


@contextmanager
def refs_db_path(
    source: str | Path, refs_db: str | Path | None, log: IssueLog, root: str | Path | None = None
) -> Iterator[Path | None]:
    """``refs.db`` given, beside the papers, or extracted from the tarball into a temporary folder."""
    if refs_db is not None:
        yield Path(refs_db)
        return
    source = Path(source)
    if source.is_dir():
        found = source / "refs.db"
        yield found if found.is_file() and not followed_out(found, source, root, log) else None
        return
    folder = Path(tempfile.mkdtemp(prefix="refsdb_"))
    try:
        found = None
        try:
            with tarfile.open(source, mode="r|*") as archive:
                for member in archive:
                    if member.isfile() and Path(member.name).name == "refs.db":
                        found = folder / "refs.db"
                        with archive.extractfile(member) as handle, open(found, "wb") as out:
                            shutil.copyfileobj(handle, out)
                        break
        except (tarfile.TarError, OSError, EOFError) as error:
            log.add(ReadIssue(str(source), None, None, "truncated_tarball", f"while looking for refs.db: {error}"))
            found = None
        yield found
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def decode_lines(data: bytes, path: str, log: IssueLog, paper_id: str | None) -> list[tuple[int, int, str]]:
    """(line number, byte offset, text) per line, newlines as Python's ``open()`` reads them."""
    lines = []
    offset = 0
    raw_lines = data.replace(b"\r\n", b"\n").split(b"\n") if b"\r" in data else data.split(b"\n")
    for number, raw in enumerate(raw_lines, start=1):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            text = raw.decode("utf-8", errors="replace")
            log.add(ReadIssue(path, number, offset, "invalid_utf8", f"replaced by U+FFFD: {error}", paper_id))
        if "\r" in text:  # a lone CR is a line end for open(); keep the line numbering of the file
            text = text.replace("\r", "\n")
        lines.append((number, offset, text))
        offset += len(raw) + 1
    return lines


def arxiv_id_of(name: str) -> str:
    """``hep-th9901001.txt`` -> ``hep-th9901001`` (the form of refs.db's citing_arxiv_id)."""
    return name.removesuffix(".txt")


def is_arxiv_id(value: str) -> bool:
    return bool(NEW_STYLE.fullmatch(value) or OLD_STYLE.fullmatch(value))


class RefsDb:
    """Read-only access to ``refs.db``; opens it in immutable mode so nothing is ever written."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.connection = sqlite3.connect(f"file:{self.path}?mode=ro&immutable=1", uri=True)
        self.connection.text_factory = bytes  # decode ourselves: bad bytes are reported, not fatal

    def close(self) -> None:
        self.connection.close()

    def problem(self) -> str | None:
        """Why this file cannot be read as unarXive's refs.db (not SQLite, no bibitem table or columns), or None."""
        try:
            self.connection.execute(f"select {', '.join(BIBITEM_COLUMNS)} from bibitem limit 1").fetchall()
        except sqlite3.DatabaseError as error:
            empty = self.path.is_file() and self.path.stat().st_size == 0
            return "an empty file" if empty else f"not unarXive's refs.db ({error})"
        return None

    def known(self, uuids: list[str]) -> dict[str, tuple]:
        """uuid -> (citing_arxiv_id, citing_mag_id, cited_mag_id) for the uuids present (by primary key)."""
        found: dict[str, tuple] = {}
        for start in range(0, len(uuids), 500):
            batch = uuids[start : start + 500]
            query = (
                "select uuid, citing_arxiv_id, citing_mag_id, cited_mag_id from bibitem where uuid in "
                f"({','.join('?' * len(batch))})"
            )
            for row in self.connection.execute(query, batch):
                values = [v.decode("utf-8", "replace") if isinstance(v, bytes) else v for v in row]
                found[values[0]] = tuple(values[1:])
        return found


def open_refs_db(path: str | Path, log: IssueLog) -> RefsDb | None:
    """``refs.db`` opened and checked; a file that cannot be one (``unreadable_refs_db``) gives None, an empty
    ``bibitem`` table is reported (``empty_refs_db``): either way the papers are still read."""
    refs = RefsDb(path)
    problem = refs.problem()
    if problem is not None:
        refs.close()
        log.add(ReadIssue(str(path), None, None, "unreadable_refs_db", f"{problem}{KEPT_WITHOUT_REFERENCES}"))
        return None
    if refs.connection.execute("select 1 from bibitem limit 1").fetchone() is None:
        log.add(ReadIssue(str(path), None, None, "empty_refs_db", "the bibitem table has no rows: no references"))
    return refs


def mag_id(value: str | None, column: str, rowid, path: str, log: IssueLog) -> str | None:
    """A MAG id (a number) or None; anything else is reported and dropped."""
    if value is None or (value.isascii() and value.isdigit()):
        return value
    log.add(ReadIssue(path, rowid, None, "bad_mag_id", f"bibitem.{column} {value[:40]!r} is not a number: dropped"))
    return None


def _decode_cell(value, column: str, rowid: int, path: str, log: IssueLog):
    if value is None or isinstance(value, (int, float)):
        return None if value is None else str(value)
    try:
        return value.decode("utf-8")
    except UnicodeDecodeError as error:
        log.add(ReadIssue(path, rowid, None, "invalid_utf8", f"bibitem.{column} replaced by U+FFFD: {error}"))
        return value.decode("utf-8", errors="replace")


def _bibitems(refs: RefsDb, citing: Iterable[str] | None) -> sqlite3.Cursor:
    """The bibitem rows, all of them or those of the ``citing`` papers (one scan, the ids in a temporary table)."""
    columns = f"rowid, {', '.join(BIBITEM_COLUMNS)}"
    if citing is None:
        return refs.connection.execute(f"select {columns} from bibitem order by rowid")
    refs.connection.execute("create temp table if not exists citing_papers (id text primary key)")
    refs.connection.execute("delete from temp.citing_papers")
    refs.connection.executemany("insert or ignore into temp.citing_papers values (?)", ((i,) for i in citing))
    return refs.connection.execute(
        f"select {columns} from bibitem where citing_arxiv_id in (select id from temp.citing_papers) order by rowid"
    )


def iter_references(
    refs: RefsDb, log: IssueLog, source_file: str | None = None, citing: Iterable[str] | None = None
) -> Iterator[dict]:
    """One reference_schema() row per ``bibitem``, in rowid order; ``line`` is the SQLite rowid.

    ``citing``: only the bibitems of these papers (refs.db's ``citing_arxiv_id`` form, as the file names): a
    ``refs.db`` shared by many folders or tarballs gives each its own papers' items, never all 29M of them.
    """
    path = str(refs.path)
    try:
        cursor = _bibitems(refs, citing)
    except sqlite3.DatabaseError as error:
        log.add(ReadIssue(path, None, None, "unreadable_refs_db", str(error)))
        return
    while True:
        try:
            row = cursor.fetchone()
        except sqlite3.DatabaseError as error:
            log.add(ReadIssue(path, None, None, "corrupt_refs_db", f"reading stopped: {error}"))
            return
        if row is None:
            return
        rowid = row[0]
        uuid, citing_mag, cited_mag, citing_aid, cited_aid, raw = (
            _decode_cell(value, column, rowid, path, log) for value, column in zip(row[1:], BIBITEM_COLUMNS)
        )
        if not uuid:
            log.add(ReadIssue(path, rowid, None, "missing_uuid", "bibitem row without uuid skipped"))
            continue
        citing_mag, cited_mag = (
            mag_id(v, c, rowid, path, log) for v, c in ((citing_mag, "citing"), (cited_mag, "cited"))
        )
        yield {
            "ref_id": uuid,
            "citing_paper_id": citing_aid,
            "citing_mag_id": citing_mag,
            "raw_string": raw,
            "arxiv_ids": find_arxiv_ids(raw),
            "dois": find_dois(raw),
            "linked_mag_id": cited_mag,
            "linked_openalex_id": None,
            "linked_arxiv_id": normalise_arxiv_id(cited_aid),
            "linked_doi": None,
            "release": RELEASE,
            "source_file": source_file or refs.path.name,
            "member": None,
            "line": rowid,
            "byte_offset": None,
        }


def _paragraphs(paper_id: str, lines: list[tuple[int, int, str]], provenance: dict) -> Iterator[dict]:
    block: list[tuple[int, int, str]] = []
    index = 0
    for entry in [*lines, (None, None, "")]:
        if entry[2].strip():
            block.append(entry)
            continue
        if block:
            text = "\n".join(line for _, _, line in block)
            markers = [{"start": m.start(), "end": m.end(), "ref_id": m.group(1)} for m in MARKER.finditer(text)]
            yield {
                "paper_id": paper_id,
                "paragraph_index": index,
                "section": None,
                "text": text,
                "markers": markers,
                **provenance,
                "line": block[0][0],
                "byte_offset": block[0][1],
            }
            index += 1
            block = []


def read_paper(file: PaperFile, log: IssueLog, refs: RefsDb | None) -> Paper:
    """A paper's text, its paper_schema() row and paragraph_schema() rows; problems are logged."""
    arxiv_id = arxiv_id_of(file.name)
    where = f"{file.source_file}:{file.member}" if file.member else file.source_file
    paper_id = normalise_arxiv_id(arxiv_id) or arxiv_id
    if not is_arxiv_id(arxiv_id):
        log.add(ReadIssue(where, None, None, "not_an_arxiv_id", f"file name {file.name!r}", arxiv_id))
    lines = decode_lines(file.data, where, log, arxiv_id)
    text = "\n".join(line for _, _, line in lines)
    provenance = {"release": RELEASE, "source_file": Path(file.source_file).name, "member": file.member}
    paragraphs = list(_paragraphs(paper_id, lines, provenance))
    uuids = [m.group(1) for m in MARKER.finditer(text)]
    unknown, citing_mag = 0, None
    if not uuids:
        log.add(ReadIssue(where, None, None, "no_citation_markers", "paper has no {{cite:...}} marker", arxiv_id))
    elif refs is not None:
        try:
            known = refs.known(sorted(set(uuids)))
        except sqlite3.DatabaseError as error:
            log.add(ReadIssue(str(refs.path), None, None, "corrupt_refs_db", f"{error}: markers not checked", arxiv_id))
            known, refs = {}, None  # not one issue per marker: its bibitem may be there
        for uuid in sorted(set(uuids) - set(known)) if refs is not None else []:
            log.add(ReadIssue(where, None, None, "marker_without_bibitem", f"uuid {uuid} is not in refs.db", arxiv_id))
        unknown = sum(1 for uuid in uuids if uuid not in known) if refs is not None else 0
        citing_mag = next((v[1] for v in known.values() if v[0] == arxiv_id and v[1]), None)
    row = {
        "paper_id": paper_id,
        "title": None,
        "abstract": None,
        "authors": [],
        "categories": [],
        "discipline": None,
        "mag_id": citing_mag,
        "n_paragraphs": len(paragraphs),
        "n_markers": len(uuids),
        "n_markers_without_reference": unknown,
        "text_lines": len(lines),
        "whitespace_lines": [{"line": n, "text": t} for n, _, t in lines if t and not t.strip()],
        **provenance,
        "line": 1,
        "byte_offset": 0,
    }
    return Paper(arxiv_id, text, row, paragraphs)


def text_from_paragraphs(paragraphs: Iterable[dict], text_lines: int | None, whitespace: list | None = None) -> str:
    """A paper's text rebuilt from its paragraph_schema() rows (in order), its line count and its lines of only
    whitespace: the paragraphs at their lines, the rest blank. Exact unless a line held a lone carriage return."""
    lines: dict[int, str] = {entry["line"]: entry["text"] for entry in whitespace or []}
    last = 0
    for paragraph in paragraphs:
        for offset, line in enumerate(paragraph["text"].split("\n")):
            lines[paragraph["line"] + offset] = line
            last = max(last, paragraph["line"] + offset)
    count = max(text_lines or 0, last, max(lines, default=0))
    return "\n".join(lines.get(number, "") for number in range(1, count + 1))


def iter_papers(
    source: str | Path, log: IssueLog, refs: RefsDb | None = None, root: str | Path | None = None
) -> Iterator[Paper]:
    """Every paper of a folder or tarball, one at a time (nothing read from outside ``root``)."""
    for file in iter_paper_files(source, log, root):
        yield read_paper(file, log, refs)
