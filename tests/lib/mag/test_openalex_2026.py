"""OpenAlex's 2026 snapshot layout: the real works land in the catalogue with their fields, from the JSON-lines or
the Parquet copy; manifests are checked; topics stand in for deprecated concepts; an empty snapshot is an error."""

import gzip
import json
import shutil

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from citeworth_assets.lib import lake
from citeworth_assets.lib.arxiv.dump_files import catalogue_files
from citeworth_assets.lib.duckdb_limits import DuckDbLimits
from citeworth_assets.lib.fields import MAG_FIELDS
from citeworth_assets.lib.jsonl import IssueLog
from citeworth_assets.lib.mag.catalogue import openalex_works
from citeworth_assets.lib.mag.lake_catalogue import build_works
from citeworth_assets.lib.mag.openalex_fields import FIELD_TO_MAG, SUBFIELD_TO_MAG, topic_field
from citeworth_assets.lib.mag.openalex_snapshot import LAYOUTS, SnapshotError, snapshot_parts
from citeworth_assets.samples.mag import sample_works
from citeworth_assets.samples.openalex_2026 import write_openalex_2026_snapshot, write_parquet_part

LIMITS = DuckDbLimits("256MB", threads=1)
PART = "data/jsonl/works/updated_date=2026-03-15/part_0000.gz"
OPENALEX_FIELDS = 26  # in 4 domains


@pytest.fixture
def real(shared_data):
    path = shared_data / "openalex-2026" / PART
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def level0(record: dict) -> set[str]:
    return {c["display_name"].lower() for c in record["concepts"] if c["level"] == 0}


def write_jsonl(path, records):
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="utf-8") as out:
        out.writelines(json.dumps(r) + "\n" for r in records)


def test_every_real_2026_work_lands_in_the_catalogue_with_its_fields(shared_data, real, tmp_path):
    log = IssueLog()
    counts = build_works(tmp_path / "lake", None, shared_data / "openalex-2026", log, LIMITS)
    works = {w["work_id"]: w for w in pq.read_table(lake.partition_dir(tmp_path / "lake", "works")).to_pylist()}
    assert counts["works"] == len(real) == len(works) == 100 and log.counts == {}
    for record in real:
        work = works[record["id"].rsplit("/", 1)[-1]]
        assert work["fields"] and {f.lower() for f in work["fields"]} == level0(record)
        assert set(work["fields"]) <= set(MAG_FIELDS)  # OpenAlex's "Computer science" is the MAG's "Computer Science"
    assert counts["edges"] == sum(len(r["referenced_works"]) for r in real)
    assert [p.name for p in catalogue_files(shared_data / "openalex-2026")] == []  # not a dump root
    assert [p.name for p in catalogue_files_of(shared_data, tmp_path)] == ["part_0000.gz"]


def catalogue_files_of(shared_data, tmp_path):
    root = tmp_path / "dumps"
    root.mkdir()
    (root / "openalex").symlink_to(shared_data / "openalex-2026")
    return catalogue_files(root)


def test_real_works_without_concepts_take_their_fields_from_topics(real, tmp_path):
    stripped = [{**record, "concepts": []} for record in real]
    write_jsonl(tmp_path / "openalex" / PART, stripped)
    rows = {row["work_id"]: row for row in openalex_works(tmp_path / "openalex", IssueLog())}
    for record in real:
        topics = [record["primary_topic"], *record["topics"]]
        expected = {topic_field(t) for t in topics} - {None}
        assert rows[record["id"].rsplit("/", 1)[-1]]["fields"] == sorted(expected)
        assert expected  # every real topic's field maps to a MAG field
    assert {f for row in rows.values() for f in row["fields"]} <= set(MAG_FIELDS)


def test_the_mapping_covers_all_26_openalex_fields_and_reaches_every_mag_field():
    assert len(FIELD_TO_MAG) == OPENALEX_FIELDS
    assert set(FIELD_TO_MAG.values()) | set(SUBFIELD_TO_MAG.values()) == set(MAG_FIELDS)
    assert topic_field({"domain": {"display_name": "Physical Sciences"}}) is None  # too broad to pick one
    social = {"field": {"display_name": "Social Sciences"}}
    assert topic_field({**social, "subfield": {"display_name": "Political Science and International Relations"}}) == (
        "Political Science"
    )
    assert topic_field({**social, "subfield": {"display_name": "Education"}}) == "Sociology"


def test_the_parquet_copy_is_read_as_parquet_and_gives_the_same_catalogue(real, tmp_path):
    snapshot = tmp_path / "openalex"
    write_jsonl(snapshot / PART, real)
    from_json = list(openalex_works(snapshot, IssueLog()))
    parquet = snapshot / PART.replace("jsonl", "parquet").replace(".gz", ".parquet")
    write_parquet_part(parquet, real)
    log = IssueLog()
    assert snapshot_parts(snapshot, log) == [parquet]
    assert log.counts == {"copy_not_read": 1}
    from_parquet = list(openalex_works(snapshot, log))
    assert [{**r, "source_file": None} for r in from_parquet] == [{**r, "source_file": None} for r in from_json]
    assert {r["source_file"] for r in from_parquet} == {"part_0000.parquet"}
    shutil.rmtree(snapshot / "data" / "jsonl")
    assert len(list(openalex_works(snapshot, IssueLog()))) == 100  # the Parquet copy alone
    # nested columns stored as JSON text, as some Parquet exports of the snapshot have them
    texts = {name: [json.dumps(r[name]) for r in real] for name in ("ids", "authorships", "concepts", "topics")}
    pq.write_table(pa.table({"id": [r["id"] for r in real], "title": [r["title"] for r in real], **texts}), parquet)
    log = IssueLog()
    rows = list(openalex_works(snapshot, log))
    assert [(r["work_id"], r["fields"], r["authors"]) for r in rows] == [
        (r["work_id"], r["fields"], r["authors"]) for r in from_json
    ]
    assert log.counts == {}


def test_a_part_short_of_its_manifest_count_is_reported_by_name(real, tmp_path):
    snapshot = tmp_path / "openalex"
    write_jsonl(snapshot / PART, real[:97])  # a download cut off
    manifest = {
        "entries": [
            {"url": f"s3://openalex/{PART}", "meta": {"content_length": 1, "record_count": 100}},
            {"url": "s3://openalex/data/jsonl/authors/updated_date=2026-03-15/part_0000.gz", "meta": {}},
        ],
        "meta": {"content_length": 1, "record_count": 100},
    }
    (snapshot / "data" / "jsonl" / "manifest.json").write_text(json.dumps(manifest))
    log = IssueLog()
    assert len(list(openalex_works(snapshot, log))) == 97
    short = [issue for issue in log.issues if issue.kind == "short_part"]
    assert [(issue.file.endswith("part_0000.gz"), issue.message) for issue in short] == [
        (True, "97 records read, the manifest lists 100: 3 missing")
    ]
    assert log.counts == {"short_part": 1, "manifest_size_mismatch": 1}


def test_a_snapshot_without_works_parts_is_an_error_naming_the_layouts(tmp_path):
    (tmp_path / "openalex" / "data" / "jsonl" / "authors").mkdir(parents=True)
    with pytest.raises(SnapshotError) as error:
        list(openalex_works(tmp_path / "openalex", IssueLog()))
    assert all(layout in str(error.value) for layout in LAYOUTS)
    with pytest.raises(SnapshotError):
        build_works(tmp_path / "lake", None, tmp_path / "openalex", IssueLog(), LIMITS)


def test_the_generated_2026_snapshot_carries_its_faults(tmp_path):
    works = sample_works(21, 30)[:25]
    info = write_openalex_2026_snapshot(tmp_path / "openalex", works)
    log, edges = IssueLog(), []
    rows = list(openalex_works(tmp_path / "openalex", log, edges))
    assert [r["work_id"] for r in rows] == info["written"] and info["cut"] not in info["written"]
    assert log.counts == {"copy_not_read": 1, "short_part": 1, "bad_type": 2}
    assert [i.file.rsplit("/", 1)[-1] for i in log.issues if i.kind == "short_part"] == [info["short_part"]]
    mistyped = next(r for r in rows if r["work_id"] == info["mistyped"])
    assert mistyped["citation_count"] == 0 and mistyped["title"] == works[0].title
    by_id = {r["work_id"]: r for r in rows}
    for work in works:
        if work.openalex_id in by_id:
            assert by_id[work.openalex_id]["fields"] == sorted(work.fields)  # from concepts or from topics
