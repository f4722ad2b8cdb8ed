"""Streaming JSON-lines reading that survives damaged dumps.

Dumps arrive gzipped (possibly as several concatenated gzip members) or plain. Reading never holds a
whole file: compressed bytes are fed to zlib in chunks and split into lines as they come. Damage is
reported as :class:`ReadIssue` rows (file, line, byte offset, kind) and reading goes on:

* a corrupt gzip member: the bytes decoded before the damage are kept, the line it cut is reported,
  and reading resumes at the next gzip member header, if there is one;
* a truncated file (the gzip stream or the last line ends early): the partial line is reported;
* a line that is not valid JSON, or not a JSON object: reported and skipped.

Line numbers are 1-based and count the lines of the decompressed stream as read, so after a corrupt
region they count from where decoding resumed. ``byte_offset`` is the line's offset in the
decompressed stream.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import orjson

from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.read_issues import IssueLog, ReadIssue

zlib = lazy_module("isal.isal_zlib")  # ISA-L inflate: zlib's interface, about 2.5x faster

GZIP_MAGIC = b"\x1f\x8b\x08"
OPEN_BRACE = ord("{")
CHUNK_BYTES = 1 << 18


@dataclass(frozen=True)
class JsonLine:
    number: int
    byte_offset: int
    record: dict


class _Damage:
    """A marker in the decompressed stream: the bytes before it and after it do not join up."""

    def __init__(self, kind: str, message: str):
        self.kind = kind
        self.message = message


def _is_gzip(path: Path) -> bool:
    with open(path, "rb") as f:
        return f.read(2) == GZIP_MAGIC[:2]


TEXT_PROBE_BYTES = 4096


def _utf8_text(head: bytes) -> bool:
    """Whether a file's first bytes look like UTF-8 text: at most one in eight is a NUL or an invalid byte
    (binary data gets about half), so that a few bad lines do not condemn the file."""
    bad = head.count(0) + head.decode("utf-8", errors="replace").count("\ufffd")
    return bad * 8 <= len(head)


def _not_text(path: Path, json_lines: bool, nul_ok: bool = False) -> str | None:
    """Why a file without a gzip header cannot be text lines (binary, another compression) or, with
    ``json_lines``, JSON lines; None when it can. With ``nul_ok`` a NUL is a problem of its line, and only
    a head that is not UTF-8 text makes the file binary.

    Checked once on the file's first bytes, so that such a file is one file-level problem instead of
    hundreds of misleading ``invalid_json`` lines.
    """
    with open(path, "rb") as f:
        head = f.read(TEXT_PROBE_BYTES)
    stripped = head.lstrip()
    if not stripped:
        return None
    if (b"\x00" in head and not nul_ok) or (nul_ok and not _utf8_text(head)):
        return f"not gzip and not text (starts with {head[:8]!r})"
    if json_lines and stripped[:1] not in (b"{", b"["):
        return f"not gzip and not JSON lines (starts with {head[:8]!r})"
    return None  # a bad line further on is that line's problem


def _plain_chunks(path: Path) -> Iterator[bytes]:
    with open(path, "rb") as f:
        while chunk := f.read(CHUNK_BYTES):
            yield chunk


def _find_member(f, start: int) -> int | None:
    """Offset of the next gzip member header at or after ``start``, or None."""
    f.seek(start)
    position, tail = start, b""
    while chunk := f.read(CHUNK_BYTES):
        window = tail + chunk
        found = window.find(GZIP_MAGIC)
        if found >= 0:
            return position - len(tail) + found
        tail = window[-(len(GZIP_MAGIC) - 1) :]
        position += len(chunk)
    return None


def _gzip_chunks(path: Path) -> Iterator[bytes | _Damage]:
    """Decompressed bytes of every gzip member, with :class:`_Damage` markers where decoding broke.

    Output is produced at most ``CHUNK_BYTES`` at a time, however well the input compresses.
    """
    with open(path, "rb") as f:
        member_start = 0  # file offset of the current member, for messages and resynchronisation
        member_out = 0  # decompressed bytes of the current member already given out
        decoder = zlib.decompressobj(wbits=31)
        started = False
        while True:
            pending = f.read(CHUNK_BYTES)
            if not pending:
                if started and not decoder.eof:
                    yield _Damage("truncated_gzip", f"gzip stream ends early (member at byte {member_start})")
                return
            while pending:
                input_at = f.tell() - len(pending)
                try:
                    out = decoder.decompress(pending, CHUNK_BYTES)
                except zlib.error as error:
                    # The failed call's output is lost with it: decode again up to the damage to keep it.
                    salvaged = _salvage(f, member_start, input_at, len(pending), member_out)
                    if salvaged:
                        yield salvaged
                    yield _Damage("corrupt_gzip", f"gzip member at byte {member_start} is corrupt: {error}")
                    next_member = _find_member(f, member_start + 1)
                    if next_member is None:
                        return
                    member_start, started, member_out = next_member, False, 0
                    decoder = zlib.decompressobj(wbits=31)
                    f.seek(next_member)
                    break
                started = True
                if out:
                    member_out += len(out)
                    yield out
                if decoder.eof:
                    leftover = decoder.unused_data
                    member_start, member_out = f.tell() - len(leftover), 0
                    decoder, started = zlib.decompressobj(wbits=31), False
                    if leftover and not leftover.startswith(GZIP_MAGIC[:2]):
                        if leftover.strip(b"\x00"):  # zero padding after the last member is harmless
                            yield _Damage("trailing_garbage", f"bytes at {member_start} are not a gzip member")
                        next_member = _find_member(f, member_start + 1)
                        if next_member is None:
                            return
                        member_start = next_member
                        f.seek(next_member)
                        break
                    pending = leftover
                else:
                    pending = decoder.unconsumed_tail


SALVAGE_STEP = 1  # compressed bytes per call through the failing input: nothing decodable is lost


def _salvage(f, member_start: int, failed_at: int, failed_bytes: int, given_out: int) -> bytes:
    """The decompressed bytes of a member past ``given_out`` that can still be decoded before its damage.

    The member is decoded again, quickly up to ``failed_at`` (where the failing call's input began, all
    decodable before), then a few bytes at a time through the failing input until the error, so that at
    most a few lines are lost at the damage instead of everything the failing call would have returned.
    """
    decoder = zlib.decompressobj(wbits=31)
    f.seek(member_start)
    produced, kept = 0, []

    def take(out: bytes) -> None:
        nonlocal produced
        if produced + len(out) > given_out:
            kept.append(out[max(0, given_out - produced) :])
        produced += len(out)

    try:
        position = member_start
        while position < failed_at:
            data = f.read(min(CHUNK_BYTES, failed_at - position))
            if not data:
                break
            position += len(data)
            take(decoder.decompress(data))
        damaged = f.read(failed_bytes)
        for start in range(0, len(damaged), SALVAGE_STEP):
            take(decoder.decompress(damaged[start : start + SALVAGE_STEP]))
            if decoder.eof:
                break
    except zlib.error:
        pass
    return b"".join(kept)


def _decompressed(path: Path, log: IssueLog, json_lines: bool, nul_ok: bool) -> Iterator[bytes | _Damage] | None:
    """The decompressed chunks of a gzipped or plain file; None (reported) for a plain file that cannot hold lines."""
    if _is_gzip(path):
        return _gzip_chunks(path)
    problem = _not_text(path, json_lines, nul_ok)  # plain lines under a .gz name are read as they are
    if problem is not None:
        kind = "not_gzip" if path.suffix == ".gz" else "not_json_lines" if json_lines else "not_text"
        log.add(ReadIssue(str(path), None, None, kind, problem))
        return None
    return _plain_chunks(path)


def iter_raw_lines(
    path: str | Path, log: IssueLog, json_lines: bool = False, nul_ok: bool = False
) -> Iterator[tuple[int, int, bytes, bool]]:
    """(line number, byte offset, line bytes, ended by a newline) of a gzipped or plain file, streaming.

    A plain file that cannot hold such lines (``json_lines``: JSON lines) is one file-level problem;
    ``nul_ok``: a NUL in a text file is left to the caller, line by line.
    """
    path = Path(path)
    chunks = _decompressed(path, log, json_lines, nul_ok)
    if chunks is None:
        return
    number, offset, partial = 0, 0, b""
    for chunk in chunks:
        if isinstance(chunk, _Damage):
            number += 1
            log.add(ReadIssue(str(path), number, offset, chunk.kind, chunk.message))
            offset += len(partial)
            partial = b""
            continue
        lines = chunk.split(b"\n")
        if partial:
            lines[0] = partial + lines[0]
        partial = lines.pop()
        for line in lines:
            number += 1
            yield number, offset, line, True
            offset += len(line) + 1
    if partial.strip():
        number += 1
        yield number, offset, partial, False


def _long_lines(path: Path, log: IssueLog) -> Iterator[tuple[int, int, memoryview | bytes, bool]]:
    """:func:`iter_raw_lines` of JSON lines for lines of tens of kilobytes (full texts): a line that lies whole in
    one decompressed chunk is a view of the chunk, not a copy (splitting copies every byte once more; short lines
    split faster than they are found one by one)."""
    chunks = _decompressed(path, log, True, False)
    if chunks is None:
        return
    number, offset, pieces = 0, 0, []  # pieces: the start of a line that runs on into the next chunk
    for chunk in chunks:
        if isinstance(chunk, _Damage):
            number += 1
            log.add(ReadIssue(str(path), number, offset, chunk.kind, chunk.message))
            offset += sum(map(len, pieces))
            pieces = []
            continue
        end = chunk.find(b"\n")
        if end < 0:
            pieces.append(chunk)
            continue
        view, start = memoryview(chunk), 0
        if pieces:
            line = b"".join(pieces) + chunk[:end]
            pieces = []
            number += 1
            yield number, offset, line, True
            offset += len(line) + 1
            start = end + 1
            end = chunk.find(b"\n", start)
        while end >= 0:
            number += 1
            yield number, offset, view[start:end], True
            offset += end - start + 1
            start = end + 1
            end = chunk.find(b"\n", start)
        if start < len(chunk):
            pieces.append(chunk[start:])
    partial = b"".join(pieces)
    if partial.strip():
        number += 1
        yield number, offset, partial, False


SURROGATE = re.compile("[\ud800-\udfff]")


def _without_surrogates(value):
    """A parsed JSON value with every lone surrogate of its strings (keys too) replaced by U+FFFD."""
    if isinstance(value, str):
        return SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [_without_surrogates(item) for item in value]
    if isinstance(value, dict):
        return {_without_surrogates(k): _without_surrogates(v) for k, v in value.items()}
    return value


def _repaired(line: bytes) -> tuple[object, str] | None:
    """A line that is JSON but for invalid UTF-8 bytes or lone-surrogate escapes: its value with U+FFFD in
    their place, and what was replaced; None when it is not JSON either way."""
    text = line.decode("utf-8", errors="replace")
    try:
        value = json.loads(text)
    except ValueError:
        return None
    cleaned = _without_surrogates(value)
    what = [w for w, bad in (("invalid UTF-8", "\ufffd" in text), ("lone surrogates", cleaned != value)) if bad]
    return cleaned, " and ".join(what) or "nothing"


def iter_json_records(
    path: str | Path,
    log: IssueLog,
    wanted: Callable[[bytes], bool] | None = None,
    repair: bool = False,
    long_lines: bool = False,
) -> Iterator[tuple[int, int, int, dict]]:
    """(line number, byte offset, line length in bytes, object) of each JSON object of a JSON-lines file.

    Bad lines are logged and skipped, blank lines ignored. ``wanted``, if given, sees each raw line first (bytes, or
    with ``long_lines`` a memoryview); lines it rejects are not parsed at all; ``repair`` as in
    :func:`iter_json_lines`; ``long_lines``: lines are parsed where they lie in the decompressed stream
    (:func:`_long_lines`). Plain tuples, no object per line: the batch readers of large dumps call this once per record.
    """
    path = Path(path)
    loads, decode_error = orjson.loads, orjson.JSONDecodeError
    lines = _long_lines(path, log) if long_lines else iter_raw_lines(path, log, json_lines=True)
    for number, offset, line, complete in lines:
        if not line or (line[0] != OPEN_BRACE and not bytes(line).strip()):
            continue
        if wanted is not None and not wanted(line):
            continue
        try:
            record = loads(line)
        except decode_error as error:
            kind = "invalid_json" if complete else "truncated_line"
            if complete and ("UTF-8" in str(error) or (repair and "surrogate" in str(error))):
                kind = "invalid_utf8"
            repaired = _repaired(bytes(line)) if repair and kind == "invalid_utf8" else None
            if repaired is None:
                log.add(ReadIssue(str(path), number, offset, kind, f"{error} ({len(line)} bytes)"))
                continue
            record, what = repaired
            log.add(ReadIssue(str(path), number, offset, kind, f"{what} replaced by U+FFFD, record kept"))
        if type(record) is not dict:
            log.add(ReadIssue(str(path), number, offset, "not_an_object", f"a JSON {type(record).__name__}"))
            continue
        yield number, offset, len(line), record


def iter_json_lines(
    path: str | Path, log: IssueLog, wanted: Callable[[bytes], bool] | None = None, repair: bool = False
) -> Iterator[JsonLine]:
    """JSON objects of a JSON-lines file; bad lines are logged and skipped, blank lines ignored.

    ``wanted``, if given, sees each raw line first; lines it rejects are not parsed at all. ``repair``: a line
    that is JSON but for invalid UTF-8 or lone-surrogate escapes is kept with U+FFFD in their place (reported
    as ``invalid_utf8``) instead of skipped.
    """
    for number, offset, _, record in iter_json_records(path, log, wanted, repair):
        yield JsonLine(number, offset, record)
