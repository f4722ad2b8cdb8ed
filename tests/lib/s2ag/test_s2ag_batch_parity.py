"""The batch reader (spans as offset columns) gives exactly what reading record by record gives: the same rows, the
same issues in the same order, on real records and on copies of them damaged in every way the release is."""

import gzip
import random

import orjson
import pyarrow as pa
import pytest

from citeworth_assets.lib.read_issues import IssueLog
from citeworth_assets.lib.s2ag import records
from citeworth_assets.lib.s2ag.batch_paragraphs import _matched_ids
from citeworth_assets.lib.s2ag.records import full_texts, paragraph_batches, paragraph_table
from citeworth_assets.lib.s2orc.schema import ShardSource

KINDS = ("bibentry", "paragraph", "sectionheader", "bibref", "figureref", "tableref", "figure", "table", "title")


def _damaged(record: dict, rng: random.Random) -> dict:
    """A copy with one fault: a kind null, empty, not JSON, a bad or overlapping span, no text, offsets as text,
    offsets as bools or floats, a list written out two or three times over (as the real files repeat spans),
    attributes that are not an object, ids as numbers, a lone surrogate escaped in the inner JSON..."""
    record = orjson.loads(orjson.dumps(record))
    annotations = record["content"]["annotations"]
    fault = rng.randrange(20)
    where = {4: "paragraph bibref", 5: "paragraph bibref", 11: "paragraph bibref", 13: "paragraph bibref"}
    where |= {16: "bibref bibentry", 17: "bibref bibentry", 19: "bibentry"}  # where overlaps and types matter
    kind = rng.choice(where[fault].split() if fault in where else KINDS)
    value = annotations.get(kind)
    spans = orjson.loads(value) if value else []
    if fault == 0:
        annotations[kind] = None
    elif fault == 1:
        annotations[kind] = "[]"
    elif fault == 2:
        annotations[kind] = "[{not json"
    elif fault == 3 and spans:
        spans[rng.randrange(len(spans))]["end"] = len(record["content"]["text"]) + 5
    elif fault == 4 and spans:
        span = rng.choice(spans)
        spans.append({**span, "start": max(0, span["start"] - 3), "end": span["end"] - 1})  # an overlap
    elif fault == 5 and spans:
        span = rng.choice(spans)
        spans[spans.index(span)] = {**span, "start": str(span["start"]), "end": str(span["end"])}
    elif fault == 6 and spans:
        for span in spans:
            span.pop("attributes", None)  # citations naming no entry
    elif fault == 7:
        del record["content"]["text"]
    elif fault == 8 and spans:
        rng.shuffle(spans)
        spans += spans[: len(spans) // 2]  # repeats out of order
    elif fault == 9:
        annotations[kind] = orjson.dumps(spans).decode() if spans else None  # unchanged, as a string
    elif fault == 10:
        record["corpusid"] = str(record["corpusid"])
    elif fault == 11 and spans:
        span = rng.choice(spans)
        span["start"] = span["start"] > 0  # True (1) or False (0): not an offset
    elif fault == 12 and spans:
        bare = {key: value for key, value in rng.choice(spans).items() if key != "attributes"}
        spans = [bare, *spans]  # a repeat whose first has no attributes, in every copy
    elif fault == 13 and spans:
        rng.choice(spans)["end"] += 0.0
    elif fault == 14 and spans:
        rng.choice(spans)["end"] = len(record["content"]["text"]) + 5  # out of range, in every copy
    elif fault == 15 and spans:
        rng.choice(spans)["start"] = 2**63 + 1  # beyond int64
    elif fault == 16 and spans:
        rng.choice(spans)["attributes"] = "b1"  # attributes that are not an object
    elif fault == 17 and spans:
        for span in spans[::2]:  # ids written as numbers
            span["attributes"] = {**(span.get("attributes") or {}), "ref_id": 7, "id": 7, "matched_paper_id": "12"}
    elif fault == 18 and value:
        annotations[kind] = value.replace('"', '"\\ud800', 1)  # a lone surrogate escaped in the span list
    elif fault == 19 and spans:
        for k, span in enumerate(spans):  # matched ids written as text, some of them empty
            matched = (span.get("attributes") or {}).get("matched_paper_id")
            if matched is not None:
                span["attributes"]["matched_paper_id"] = "" if k % 2 else str(matched)
    if 3 <= fault <= 19 and fault not in (7, 9, 10, 18):
        annotations[kind] = orjson.dumps(spans).decode()
    if fault in (12, 14) and spans:  # the list written out again whole, twice or three times
        annotations[kind] = "[" + ",".join([annotations[kind][1:-1]] * rng.choice((2, 3))) + "]"
    return record


def _record_by_record(source: ShardSource, log: IssueLog, max_chars: int) -> pa.Table:
    tables = [paragraph_table(source, read) for read in full_texts(source, log, max_chars=max_chars)]
    return pa.concat_tables(tables)


@pytest.mark.parametrize("batch_records", [1, 7, 500])
def test_the_batch_reader_matches_reading_record_by_record(shared_data, tmp_path, monkeypatch, batch_records):
    templates = []
    for sample in sorted((shared_data / "s2ag-2023" / "s2orc").glob("*.gz")):
        with gzip.open(sample, "rb") as f:
            templates += [orjson.loads(line) for line in f if line.strip()]
    rng = random.Random(batch_records)
    path = tmp_path / "part-0.jsonl.gz"
    with gzip.open(path, "wb") as out:
        for i in range(120):
            record = templates[i % len(templates)]
            record = _damaged(record, rng) if i % 3 else record
            out.write(orjson.dumps({**record, "corpusid": record["corpusid"] if i % 3 == 1 else 1000 + i}) + b"\n")
    monkeypatch.setattr(records, "BATCH_RECORDS", batch_records)
    source = ShardSource("2023-02-14", "part-0", path)
    for max_chars in (100_000, 600):  # 600: some paragraphs too long
        batch_log, careful_log = IssueLog(), IssueLog()
        batched = pa.concat_tables(paragraph_batches(source, batch_log, max_chars=max_chars))
        careful = _record_by_record(source, careful_log, max_chars)
        assert batched.num_rows > 1000
        assert batched.equals(careful)
        assert [repr(issue) for issue in batch_log.issues] == [repr(issue) for issue in careful_log.issues]
        assert batch_log.counts == careful_log.counts


def test_matched_ids_become_text_as_the_record_by_record_reading_makes_them():
    """Numbers (as in the release), text, empty text, both mixed, and a number beyond int64."""
    cases = ([5, None, 12], ["", "5", None], [5, "6", "", None], [2**64, 3], [None, None])
    for matched in cases:
        expected = [None if m is None or m == "" else str(m) for m in matched]
        assert _matched_ids(matched).to_pylist() == expected
