import gzip
import json
import random
import re
import tracemalloc
import zlib

import pytest

from citeworth_assets.lib.jsonl import iter_json_lines, iter_json_records
from citeworth_assets.lib.read_issues import IssueLog


def records(n, start=0):
    return [{"paper_id": str(i), "text": f"paper {i} " + "x" * (i % 7)} for i in range(start, start + n)]


def as_lines(rows):
    return "".join(json.dumps(row) + "\n" for row in rows).encode()


def read(path):
    log = IssueLog()
    return [(line.number, line.byte_offset, line.record["paper_id"]) for line in iter_json_lines(path, log)], log


def test_plain_and_gzip_give_the_same_lines_with_offsets(tmp_path):
    data = as_lines(records(50))
    (tmp_path / "a.jsonl").write_bytes(data)
    (tmp_path / "a.jsonl.gz").write_bytes(gzip.compress(data))
    plain, plain_log = read(tmp_path / "a.jsonl")
    zipped, zipped_log = read(tmp_path / "a.jsonl.gz")
    assert plain == zipped
    assert [paper for _, _, paper in plain] == [str(i) for i in range(50)]
    assert plain_log.total == zipped_log.total == 0
    number, offset, _ = plain[7]
    assert number == 8
    assert json.loads(data[offset:].split(b"\n", 1)[0])["paper_id"] == "7"


def test_several_gzip_members_are_read_in_order(tmp_path):
    path = tmp_path / "multi.jsonl.gz"
    path.write_bytes(gzip.compress(as_lines(records(3))) + gzip.compress(as_lines(records(4, start=3))))
    lines, log = read(path)
    assert [paper for _, _, paper in lines] == [str(i) for i in range(7)]
    assert log.total == 0


def test_a_corrupt_member_is_reported_and_reading_resumes_at_the_next(tmp_path):
    first = gzip.compress(as_lines(records(200)))
    middle = bytearray(gzip.compress(as_lines(records(200, start=200))))
    middle[len(middle) // 2 : len(middle) // 2 + 40] = b"\xff" * 40  # damage inside the deflate stream
    last = gzip.compress(as_lines(records(5, start=400)))
    path = tmp_path / "damaged.jsonl.gz"
    path.write_bytes(first + bytes(middle) + last)
    lines, log = read(path)
    papers = [int(paper) for _, _, paper in lines]
    assert papers[:200] == list(range(200))  # everything before the damage
    assert papers[-5:] == list(range(400, 405))  # everything after it
    assert log.counts.get("corrupt_gzip") == 1
    issue = next(i for i in log.issues if i.kind == "corrupt_gzip")
    assert issue.file == str(path) and issue.line is not None and issue.line > 200


def test_a_truncated_gzip_file_keeps_the_complete_lines(tmp_path):
    whole = gzip.compress(as_lines(records(500)))
    path = tmp_path / "cut.jsonl.gz"
    path.write_bytes(whole[: len(whole) * 2 // 3])
    lines, log = read(path)
    assert 0 < len(lines) < 500
    assert [int(p) for _, _, p in lines] == list(range(len(lines)))
    assert log.counts.get("truncated_gzip") == 1


def test_bad_lines_are_counted_with_their_line_numbers_and_skipped(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_bytes(b'{"paper_id": "1"}\n{"paper_id": \n\n[1, 2]\n{"paper_id": "4"}\n{"paper_id": "5", "ti')
    lines, log = read(path)
    assert [paper for _, _, paper in lines] == ["1", "4"]
    assert {(issue.kind, issue.line) for issue in log.issues} == {
        ("invalid_json", 2),
        ("not_an_object", 4),
        ("truncated_line", 6),
    }
    assert all(str(path) in str(issue) for issue in log.issues)


def test_a_file_that_is_not_gzip_despite_its_name_is_read_plain(tmp_path):
    path = tmp_path / "plain.jsonl.gz"
    path.write_bytes(as_lines(records(3)))
    lines, log = read(path)
    assert len(lines) == 3 and log.total == 0


def test_garbage_after_the_last_member_is_reported(tmp_path):
    path = tmp_path / "tail.jsonl.gz"
    path.write_bytes(gzip.compress(as_lines(records(3))) + b"not gzip at all")
    lines, log = read(path)
    assert len(lines) == 3
    assert log.counts == {"trailing_garbage": 1}


@pytest.mark.slow  # a few seconds: make test runs it, make test-fast leaves it out
def test_reading_is_streaming(tmp_path):
    """Peak memory while reading stays far below the decompressed size of the file."""
    path = tmp_path / "big.jsonl.gz"
    compressor = zlib.compressobj(wbits=31)
    size = 0
    with open(path, "wb") as out:
        for start in range(0, 150_000, 10_000):
            block = as_lines({"paper_id": str(i), "text": f"word {i} " * 12} for i in range(start, start + 10_000))
            size += len(block)
            out.write(compressor.compress(block))
        out.write(compressor.flush())
    tracemalloc.start()
    try:
        count = sum(1 for _ in iter_json_lines(path, IssueLog()))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert count == 150_000
    assert size > 15e6
    assert peak < size / 4


def _all_records(path, long_lines, wanted=None):
    log = IssueLog()
    found = list(iter_json_records(path, log, wanted, repair=True, long_lines=long_lines))
    return found, [repr(issue) for issue in log.issues]


def test_long_lines_are_read_in_place_with_the_same_records_offsets_and_issues(tmp_path):
    """Reading lines as views of the decompressed chunks (full texts) gives what splitting them off gives, on lines
    longer than a chunk, blank and indented lines, bad JSON, invalid UTF-8, a last line without its newline and a
    corrupt, truncated or trailed gzip stream."""
    rng = random.Random(3)
    rows = [{"paper_id": str(i), "text": "y" * rng.choice((10, 5_000, 70_000, 600_000))} for i in range(60)]
    lines = [json.dumps(row).encode() for row in rows]
    lines[4] = b""
    lines[9] = b"   " + lines[9]
    lines[13] = b'{"paper_id": "13", "text": "caf\xe9"}'
    lines[17] = b'{"paper_id": '
    lines[21] = b"[1, 2]"
    lines[25] = b"  \t "
    data = b"\n".join(lines)  # the last line has no newline
    whole = gzip.compress(data)
    damaged = bytearray(whole)
    damaged[len(damaged) // 2 : len(damaged) // 2 + 64] = b"\xff" * 64
    files = {
        "plain.jsonl": data,
        "whole.jsonl.gz": whole,
        "members.jsonl.gz": gzip.compress(data[:300_000]) + gzip.compress(data[300_000:]),
        "corrupt.jsonl.gz": gzip.compress(data[:700_000]) + bytes(damaged),
        "cut.jsonl.gz": whole[: len(whole) * 2 // 3],
        "trailed.jsonl.gz": whole + b"not gzip at all",
    }
    for name, content in files.items():
        path = tmp_path / name
        path.write_bytes(content)
        split, split_issues = _all_records(path, long_lines=False)
        in_place, in_place_issues = _all_records(path, long_lines=True)
        assert len(split) > 20, name
        assert in_place == split, name
        assert in_place_issues == split_issues, name

    def even(line) -> bool:  # a line filter sees the raw line
        found = re.search(rb'"paper_id": "(\d+)"', line)
        return found is None or int(found.group(1)) % 2 == 0

    whole = tmp_path / "whole.jsonl.gz"
    assert _all_records(whole, True, even) == _all_records(whole, False, even)
    assert len(_all_records(whole, True, even)[0]) < len(_all_records(whole, True)[0])
