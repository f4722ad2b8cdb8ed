"""The damage suite (issue 10): a clean generated dump and damaged copies of it, ingested into a lake.

Each case damages a copy of a small clean dump and says which records the damage touches. The
ingestion (both files of every complete shard, through the real readers and the real lake writer)
must then finish, report the problem with its file (and line, where the damage has one), and keep
every record the damage did not touch: the lake holds exactly the clean lake minus the damaged
records. To add a case, write a function ``damage(dump) -> Expected`` and list it in ``CASES``.
"""

from __future__ import annotations

import gzip
import json
import random
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from gzip_oracle import decodable_prefix

from citeworth_assets.lib import lake
from citeworth_assets.lib.duckdb_limits import DuckDbLimits
from citeworth_assets.lib.mag.lake_catalogue import build_works
from citeworth_assets.lib.read_issues import IssueLog
from citeworth_assets.lib.s2orc.records import (
    ShardSource,
    paper_schema,
    paragraph_schema,
    read_metadata,
    read_paragraphs,
)
from citeworth_assets.lib.s2orc.shards import discover_shards, incomplete_shards
from citeworth_assets.samples import mag as mag_sample
from citeworth_assets.samples.s2orc import generate_sample_dump

RELEASE = "20200705v1"


@dataclass
class Expected:
    """What a damage costs: papers lost per file (``file name -> paper ids``), paragraphs lost
    (``(paper id, paragraph index)``), and the problem that must be reported."""

    kind: str
    file: str
    line: int | None | type(...) = ...  # ... : any line number (the damage has one, not known in advance)
    lost: dict[str, set[str]] = field(default_factory=dict)
    lost_paragraphs: set[tuple[str, int]] = field(default_factory=set)
    incomplete: str | None = None  # a half shard: its key


# -- reading and writing dump files --------------------------------------------------------------


def path_of(dump: Path, name: str) -> Path:
    kind = name.rsplit("_", 1)[0]
    return dump / RELEASE / "full" / kind / name


def lines_of(dump: Path, name: str) -> list[bytes]:
    return gzip.decompress(path_of(dump, name).read_bytes()).splitlines()


def write_lines(dump: Path, name: str, lines: list[bytes]) -> None:
    path_of(dump, name).write_bytes(gzip.compress(b"".join(line + b"\n" for line in lines)))


def paper_id(line: bytes) -> str:
    return json.loads(line)["paper_id"]


def edit_record(dump: Path, name: str, index: int, change: Callable[[dict], None]) -> str:
    lines = lines_of(dump, name)
    record = json.loads(lines[index])
    change(record)
    lines[index] = json.dumps(record).encode()
    write_lines(dump, name, lines)
    return record["paper_id"]


def replace_line(dump: Path, name: str, index: int, line: bytes) -> str:
    lines = lines_of(dump, name)
    lost = paper_id(lines[index])
    lines[index] = line
    write_lines(dump, name, lines)
    return lost


def lost_to_byte_damage(dump: Path, name: str, damaged: bytes) -> set[str]:
    """Papers of a file whose lines are not wholly inside what can still be decoded after the damage."""
    clean = gzip.decompress(path_of(dump, name).read_bytes())
    prefix = decodable_prefix(damaged)
    intact = 0
    while intact < min(len(clean), len(prefix)) and clean[intact] == prefix[intact]:
        intact += 1
    kept = clean[:intact].count(b"\n")
    path_of(dump, name).write_bytes(damaged)
    return {paper_id(line) for line in clean.splitlines()[kept:]}


# -- the cases -------------------------------------------------------------------------------------


def truncated_gzip(name: str) -> Callable[[Path], Expected]:
    def damage(dump: Path) -> Expected:
        data = path_of(dump, name).read_bytes()
        lost = lost_to_byte_damage(dump, name, data[: len(data) * 3 // 5])
        return Expected("truncated_gzip", name, lost={name: lost})

    return damage


def corrupt_gzip(name: str) -> Callable[[Path], Expected]:
    def damage(dump: Path) -> Expected:
        data = bytearray(path_of(dump, name).read_bytes())
        middle = len(data) // 2
        data[middle : middle + 256] = random.Random(9).randbytes(256)
        lost = lost_to_byte_damage(dump, name, bytes(data))
        return Expected("corrupt_gzip", name, lost={name: lost})

    return damage


def not_gzip(dump: Path) -> Expected:
    name = "metadata_1.jsonl.gz"
    lost = {paper_id(line) for line in lines_of(dump, name)}
    path_of(dump, name).write_bytes(random.Random(3).randbytes(5000))
    return Expected("not_gzip", name, None, lost={name: lost})


def half_shard(empty: bool) -> Callable[[Path], Expected]:
    def damage(dump: Path) -> Expected:
        name = "pdf_parses_1.jsonl.gz"
        lost = {f: {paper_id(line) for line in lines_of(dump, f)} for f in ("metadata_1.jsonl.gz", name)}
        if empty:
            path_of(dump, name).write_bytes(b"")
        else:
            path_of(dump, name).unlink()
        return Expected("incomplete_shard", name, None, lost=lost, incomplete=f"{RELEASE}_1")

    return damage


def shard_of_directories(dump: Path) -> Expected:
    """Both files of a shard are folders of that name (``gunzip -r`` or an archive tool unpacking into a folder
    named like the archive): nothing to read, and the shard is reported, not skipped in silence."""
    for kind in ("metadata", "pdf_parses"):
        folder = dump / RELEASE / "full" / kind / f"{kind}_2.jsonl.gz"
        folder.mkdir()
        (folder / f"{kind}_2.jsonl").write_bytes(b"")
    return Expected("incomplete_shard", "metadata_2.jsonl.gz", None, incomplete=f"{RELEASE}_2")


def half_shard_as_directory(dump: Path) -> Expected:
    """One file of a shard replaced by a folder of its name: the shard is reported and its papers not read."""
    name = "pdf_parses_1.jsonl.gz"
    lost = {f: {paper_id(line) for line in lines_of(dump, f)} for f in ("metadata_1.jsonl.gz", name)}
    path_of(dump, name).unlink()
    path_of(dump, name).mkdir()
    return Expected("incomplete_shard", name, None, lost=lost, incomplete=f"{RELEASE}_1")


def invalid_utf8_in_id(dump: Path) -> Expected:
    name = "metadata_0.jsonl.gz"
    lost = replace_line(dump, name, 4, b'{"paper_id": "\xff\xfe12", "title": "x"}')
    return Expected("invalid_utf8", name, 5, lost={name: {lost}})


def invalid_utf8_in_text(dump: Path) -> Expected:
    """Kept with U+FFFD in place of the bad bytes (as unarXive's reader does), reported at its line."""
    name = "pdf_parses_0.jsonl.gz"
    lines = lines_of(dump, name)
    index = 3
    text = json.loads(lines[index])["body_text"][0]["text"].encode()
    lines[index] = lines[index].replace(text[:20], text[:10] + b"\xc3\x28" + text[12:20], 1)
    write_lines(dump, name, lines)
    return Expected("invalid_utf8", name, index + 1)


def lone_surrogate(name: str, index: int, where: Callable[[dict], None]) -> Callable[[Path], Expected]:
    """A parser that cuts a string between the two halves of a surrogate pair (mathematical letters such as
    U+1D465 are written ``\\ud835\\udc65`` in JSON) leaves a lone ``\\ud835``: strict JSON parsers reject the whole
    line. The record is kept with U+FFFD there and the line is reported."""

    def damage(dump: Path) -> Expected:
        edit_record(dump, name, index, where)
        path = path_of(dump, name)
        path.write_bytes(gzip.compress(gzip.decompress(path.read_bytes()).replace(b"LONE", b"\\ud835")))
        return Expected("invalid_utf8", name, index + 1)

    return damage


def _lone_in_paragraph(record: dict) -> None:
    record["body_text"][0]["text"] = "a variable LONE x " + record["body_text"][0]["text"]


def _lone_in_title(record: dict) -> None:
    record["title"] = "On LONE-spaces " + (record["title"] or "")


def out_of_range_year(dump: Path) -> Expected:
    edit_record(dump, "metadata_1.jsonl.gz", 2, lambda r: r.update(year=99999999999))
    return Expected("bad_type", "metadata_1.jsonl.gz", 3)


def wrong_types(dump: Path) -> Expected:
    edit_record(
        dump, "metadata_0.jsonl.gz", 6, lambda r: r.update(authors=[{"first": 123}], has_inbound_citations="false")
    )
    return Expected("bad_type", "metadata_0.jsonl.gz", 7)


def wrong_types_in_spans(dump: Path) -> Expected:
    name = "pdf_parses_1.jsonl.gz"

    def change(record):
        record["body_text"][0]["cite_spans"] = [{"start": "x", "end": 10**12}]
        record["body_text"][0]["section"] = 5

    edit_record(dump, name, 1, change)
    return Expected("span_out_of_range", name, 2)


def duplicate_in_file(dump: Path) -> Expected:
    name = "metadata_0.jsonl.gz"
    lines = lines_of(dump, name)
    write_lines(dump, name, lines + [lines[2]])
    return Expected("duplicate_paper_id", name, len(lines) + 1)


def huge_line(dump: Path) -> Expected:
    name = "pdf_parses_0.jsonl.gz"
    paper = edit_record(dump, name, 2, lambda r: r["body_text"][0].update(text="cell " * 4_000_000))  # a 20 MB line
    return Expected("paragraph_too_long", name, 3, lost_paragraphs={(paper, 0)})


def truncated_last_line(dump: Path) -> Expected:
    name = "pdf_parses_1.jsonl.gz"
    lines = lines_of(dump, name)
    lost = paper_id(lines[-1])
    path_of(dump, name).write_bytes(gzip.compress(b"".join(line + b"\n" for line in lines[:-1]) + lines[-1][:-40]))
    return Expected("truncated_line", name, len(lines), lost={name: {lost}})


CASES = {
    "truncated gzip, metadata": truncated_gzip("metadata_0.jsonl.gz"),
    "truncated gzip, pdf_parses": truncated_gzip("pdf_parses_1.jsonl.gz"),
    "corrupt gzip, metadata": corrupt_gzip("metadata_1.jsonl.gz"),
    "corrupt gzip, pdf_parses": corrupt_gzip("pdf_parses_0.jsonl.gz"),
    "not gzip": not_gzip,
    "empty half": half_shard(empty=True),
    "missing half": half_shard(empty=False),
    "a shard of directories": shard_of_directories,
    "a half shard that is a directory": half_shard_as_directory,
    "invalid UTF-8 in an id": invalid_utf8_in_id,
    "invalid UTF-8 in text": invalid_utf8_in_text,
    "lone surrogate, pdf_parses": lone_surrogate("pdf_parses_1.jsonl.gz", 2, _lone_in_paragraph),
    "lone surrogate, metadata": lone_surrogate("metadata_0.jsonl.gz", 5, _lone_in_title),
    "out-of-range number": out_of_range_year,
    "wrong types": wrong_types,
    "wrong types in spans": wrong_types_in_spans,
    "duplicate in a file": duplicate_in_file,
    "a 20 MB line": huge_line,
    "truncated last line": truncated_last_line,
}


# -- ingestion and comparison ----------------------------------------------------------------------


@dataclass
class Ingested:
    papers: set[tuple[str, str]]  # (file, paper id)
    parses: set[tuple[str, str]]  # (file, paper id) of pdf_parses records with paragraphs
    paragraphs: set[tuple[str, int]]
    issues: list
    incomplete: list


def ingest(dump: Path, lake_root: Path) -> Ingested:
    """Both files of every complete shard through the readers into the lake, as the shard assets do."""
    incomplete = incomplete_shards(dump)
    half = {shard.key for shard in incomplete}
    issues = []
    for shard in discover_shards(dump):
        if shard.key in half:
            continue
        log = IssueLog()
        papers = read_metadata(ShardSource(shard.release, shard.key, shard.metadata), log)
        lake.write_partition(lake_root, "s2orc_papers", paper_schema(), papers, shard.key)
        paragraphs = read_paragraphs(ShardSource(shard.release, shard.key, shard.pdf_parses), log)
        lake.write_partition(lake_root, "s2orc_paragraphs", paragraph_schema(), paragraphs, shard.key)
        issues += log.issues
    rows = {
        table: [
            row
            for key in {s.key for s in discover_shards(dump)} - half
            for row in lake.read_partition(lake_root, table, key).to_pylist()
        ]
        for table in ("s2orc_papers", "s2orc_paragraphs")
    }
    return Ingested(
        papers={(row["source_file"], row["paper_id"]) for row in rows["s2orc_papers"]},
        parses={(row["source_file"], row["paper_id"]) for row in rows["s2orc_paragraphs"]},
        paragraphs={(row["paper_id"], row["paragraph_index"]) for row in rows["s2orc_paragraphs"]},
        issues=issues,
        incomplete=incomplete,
    )


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    root = tmp_path_factory.mktemp("damage")
    generate_sample_dump(root / "dump", papers=60, shards=2, seed=5)
    ingested = ingest(root / "dump", root / "lake")
    assert ingested.issues == [] and ingested.incomplete == []
    assert len(ingested.papers) == 60 and ingested.paragraphs
    return root / "dump", ingested


@pytest.mark.parametrize("case", CASES)
def test_damage_loses_only_the_damaged_records_and_is_reported(case, clean, tmp_path):
    clean_dump, before = clean
    dump = tmp_path / "dump"
    shutil.copytree(clean_dump, dump)
    expected = CASES[case](dump)

    after = ingest(dump, tmp_path / "lake")  # finishes: no exception escapes

    if expected.incomplete:
        assert [shard.key for shard in after.incomplete] == [expected.incomplete]
        assert expected.file in after.incomplete[0].problem
    else:
        problems = [(issue.kind, Path(issue.file).name, issue.line) for issue in after.issues]
        matching = [p for p in problems if p[:2] == (expected.kind, expected.file)]
        assert matching, problems
        if expected.line is ...:
            assert all(line is not None for _, _, line in matching)
        else:
            assert (expected.kind, expected.file, expected.line) in matching, problems
    lost_papers = {
        (file, paper) for file, papers in expected.lost.items() if file.startswith("metadata") for paper in papers
    }
    lost_parses = {
        (file, paper) for file, papers in expected.lost.items() if file.startswith("pdf_parses") for paper in papers
    }
    assert after.papers == before.papers - lost_papers
    lost_paper_ids = {paper for _, paper in lost_parses}
    assert after.parses == {(f, p) for f, p in before.parses if (f, p) not in lost_parses}
    assert after.paragraphs == {
        (paper, index)
        for paper, index in before.paragraphs
        if paper not in lost_paper_ids and (paper, index) not in expected.lost_paragraphs
    }


# -- the works catalogue: fields of the wrong type (issue 33) ----------------------------------------------------------
# A damaged export gives a field another JSON type than the format's: ``referenced_works`` as a number (crashed the
# catalogue step with a TypeError), a string (one edge per character) or an object (an edge to a key). Each such
# field is a counted ``bad_type`` issue naming the file and line; the work stays, without that field.

CATALOGUE_LIMITS = DuckDbLimits("256MB", threads=1)
MISTYPED = [  # (field, value, the real-world pattern it comes from)
    ("referenced_works", 7, "the count (referenced_works_count) written where the list belongs"),
    ("referenced_works", "https://openalex.org/W2741809807", "a single id not wrapped in a list"),
    ("referenced_works", {"https://openalex.org/W2741809807": 1}, "a list turned into an object keyed by id"),
    ("authorships", "Vaswani, Ashish; Shazeer, Noam", "authors flattened into one string"),
    ("concepts", {"display_name": "Physics", "level": 0}, "a one-element list unwrapped"),
    ("locations", "https://arxiv.org/abs/1706.03762", "a landing page URL where the list belongs"),
    ("publication_year", True, "a boolean flag in the year's column"),
    ("cited_by_count", 10**20, "a count beyond 64 bits (a float rendered as an integer)"),
    ("ids", ["https://openalex.org/W1"], "the ids object given as a list"),
    ("doi", 101103, "a DOI's numeric suffix alone"),
    ("primary_topic", "Physics", "a topic's name in place of the topic object"),
    ("topics", {"display_name": "Physics"}, "a one-element list unwrapped"),
]


def catalogue(snapshot: Path, lake_root: Path) -> tuple[dict, set, IssueLog]:
    log = IssueLog()
    build_works(lake_root, None, snapshot, log, CATALOGUE_LIMITS)
    works = {w["work_id"]: w for w in lake.read_partition(lake_root, "works").to_pylist()}
    edges = {
        (e["citing_work_id"], e["cited_work_id"]) for e in lake.read_partition(lake_root, "work_references").to_pylist()
    }
    return works, edges, log


@pytest.fixture(scope="module")
def clean_catalogue(tmp_path_factory):
    root = tmp_path_factory.mktemp("catalogue_damage")
    works = mag_sample.sample_works(9, 20)
    references = [(a.mag_id, b.mag_id) for a, b in zip(works, works[1:])]
    mag_sample.write_openalex_snapshot(root / "openalex", works, references, per_part=100)
    before = catalogue(root / "openalex", root / "lake")
    assert before[2].counts == {} and before[1]
    return root / "openalex", before


@pytest.mark.parametrize(
    ("name", "value", "pattern"), MISTYPED, ids=[f"{n}-{type(v).__name__}" for n, v, _ in MISTYPED]
)
def test_a_mistyped_catalogue_field_costs_that_field_only(name, value, pattern, clean_catalogue, tmp_path):
    snapshot, (works_before, edges_before, _) = clean_catalogue
    shutil.copytree(snapshot, tmp_path / "openalex")
    part = next((tmp_path / "openalex").glob("works/*/part_*.gz"))
    records = [json.loads(line) for line in gzip.decompress(part.read_bytes()).splitlines()]
    records[1][name] = value
    part.write_bytes(gzip.compress(b"".join(json.dumps(r).encode() + b"\n" for r in records)))
    damaged = records[1]["id"].rsplit("/", 1)[-1]

    works, edges, log = catalogue(tmp_path / "openalex", tmp_path / "lake")  # finishes: no exception escapes

    assert log.counts == {"bad_type": 1}, pattern
    issue = log.issues[0]
    assert (Path(issue.file).name, issue.line, issue.paper_id) == (part.name, 2, damaged) and name in issue.message
    assert works.keys() == works_before.keys()
    for work_id, work in works.items():  # only the damaged work's own field is lost
        lost = {
            "authorships": "authors",
            "locations": "arxiv_id",
            "publication_year": "year",
            "cited_by_count": "citation_count",
            "ids": "mag_id",
            "doi": "doi",
            "concepts": "fields",
        }.get(name)
        expected = works_before[work_id]
        if work_id == damaged and lost:
            assert work[lost] in (None, [], 0)
            expected = {**expected, lost: work[lost]}
            if lost == "doi":
                expected["arxiv_id"] = work["arxiv_id"]
        assert work == expected
    lost_edges = {e for e in edges_before if e[0] == damaged} if name == "referenced_works" else set()
    assert edges == edges_before - lost_edges


def test_a_mistyped_mag_integer_costs_that_field_only(tmp_path):
    works = mag_sample.sample_works(9, 10)
    mag_sample.write_mag_dump(tmp_path / "mag", works, damaged=False)
    papers = (tmp_path / "mag" / "Papers.txt").read_text(encoding="utf-8").splitlines()
    cells = papers[2].split("\t")
    cells[7] = "19x9"  # an OCR'd year
    papers[2] = "\t".join(cells)
    (tmp_path / "mag" / "Papers.txt").write_text("\n".join(papers) + "\n", encoding="utf-8")
    log = IssueLog()
    build_works(tmp_path / "lake", tmp_path / "mag", None, log, CATALOGUE_LIMITS)
    kept = {w["work_id"]: w for w in lake.read_partition(tmp_path / "lake", "works").to_pylist()}
    assert log.counts == {"bad_type": 1} and log.issues[0].line == 3
    assert len(kept) == len(works) and kept[f"mag:{cells[0]}"]["year"] is None
    assert kept[f"mag:{cells[0]}"]["title"] == works[2].title


def test_an_arxiv_metadata_line_with_a_mistyped_id_is_counted_not_silent(tmp_path):
    from citeworth_assets.lib.identifiers import read_arxiv_metadata_titles

    path = tmp_path / "arxiv-metadata.jsonl"
    lines = [
        {"id": "0704.0001", "title": "Calculation of prompt\\n  diphoton production"},
        {"id": 704.0002, "title": "Sparsity-certifying Graph Decompositions"},  # a spreadsheet round trip
        {"id": "0704.0003", "title": None},
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    log = IssueLog()
    assert [arxiv_id for arxiv_id, _ in read_arxiv_metadata_titles(path, log)] == ["0704.0001"]
    assert log.counts == {"bad_type": 2} and [issue.line for issue in log.issues] == [2, 3]
