"""Defects 4 and 5 of issue 10: a corrupt gzip region keeps the lines before it; a file that is not gzip is one
problem."""

import bz2
import gzip
import json
import random

from gzip_oracle import decodable_prefix

from citeworth_assets.lib.jsonl import iter_json_lines
from citeworth_assets.lib.read_issues import IssueLog


def records(n: int) -> list[dict]:
    rng = random.Random(4)
    return [
        {"paper_id": str(i), "text": " ".join(rng.choice(["cell", "gene", "model", "data", "x"]) for _ in range(60))}
        for i in range(n)
    ]


def test_a_corrupt_region_keeps_every_complete_line_decoded_before_it(tmp_path):
    rows = records(400)
    content = b"".join(json.dumps(r).encode() + b"\n" for r in rows)
    data = bytearray(gzip.compress(content))
    middle = len(data) // 2
    data[middle : middle + 256] = bytes(random.Random(1).randrange(256) for _ in range(256))
    path = tmp_path / "metadata_0.jsonl.gz"
    path.write_bytes(bytes(data))
    prefix = decodable_prefix(bytes(data))
    intact = 0
    while intact < len(content) and intact < len(prefix) and content[intact] == prefix[intact]:
        intact += 1
    expected = content[:intact].count(b"\n")
    assert expected > 50
    log = IssueLog()
    kept = [line.record for line in iter_json_lines(path, log)]
    assert kept[:expected] == rows[:expected]
    assert log.counts.get("corrupt_gzip") == 1
    damage = next(issue for issue in log.issues if issue.kind == "corrupt_gzip")
    assert damage.line is not None and damage.file == str(path)


def test_a_file_named_gz_that_is_not_gzip_is_one_file_level_problem(tmp_path):
    for name, data in [
        ("random", random.Random(2).randbytes(50_000)),
        ("bz2", bz2.compress(b'{"paper_id": "1"}\n' * 500)),
    ]:
        path = tmp_path / f"{name}_0.jsonl.gz"
        path.write_bytes(data)
        log = IssueLog()
        assert list(iter_json_lines(path, log)) == []
        assert [(issue.kind, issue.line) for issue in log.issues] == [("not_gzip", None)], name


def test_a_binary_plain_file_is_one_file_level_problem(tmp_path):
    path = tmp_path / "metadata_0.jsonl"
    path.write_bytes(b"\x00\x01" + random.Random(3).randbytes(20_000))
    log = IssueLog()
    assert list(iter_json_lines(path, log)) == []
    assert [(issue.kind, issue.line) for issue in log.issues] == [("not_json_lines", None)]
