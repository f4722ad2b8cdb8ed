"""Tests of the synthetic S2ORC 20200705v1 dump generator: layout, determinism, schema, consistency.

The schema checks compare with the real excerpts in ../shared/data (skipped when absent); the
candidate-filter check re-implements the 9 criteria independently of the generator, so that a
generator bug cannot hide behind its own bookkeeping.
"""

from __future__ import annotations

import gzip
import json
import re
import tracemalloc
from collections import Counter
from pathlib import Path

import pytest
from s2orc_dump import (
    PAPERS,
    REAL_S2ORC,
    SEED,
    SHARDS,
    SHARED_DATA,
    Dump,
    first_failed_criterion,
)

from citeworth_assets.samples import s2orc as sample_dump
from citeworth_assets.samples.s2orc import (
    ACCEPTED,
    CANDIDATE_CRITERIA,
    MAG_FIELDS,
    abstract_for,
    generate_sample_dump,
    paper_id_for,
)

# ------------------------------------------------------------------------------------------------
# Layout, determinism, atomicity
# ------------------------------------------------------------------------------------------------


def test_layout_and_file_names(dump: Dump) -> None:
    full = dump.out / "20200705v1" / "full"
    assert sorted(p.name for p in (full / "metadata").iterdir()) == [f"metadata_{i}.jsonl.gz" for i in range(SHARDS)]
    assert sorted(p.name for p in (full / "pdf_parses").iterdir()) == [
        f"pdf_parses_{i}.jsonl.gz" for i in range(SHARDS)
    ]
    assert sorted(p.name for p in dump.out.iterdir()) == ["20200705v1"]
    assert sorted(p.name for p in full.iterdir()) == ["metadata", "pdf_parses"]


def test_shards_are_contiguous_blocks(dump: Dump) -> None:
    assert dump.summary["papers_per_shard"] == [len(s) for s in dump.metadata_shards] == [100, 100, 100]
    ids = [m["paper_id"] for m in dump.metadata]
    assert ids == [paper_id_for(SEED, i) for i in range(PAPERS)]
    assert len(set(ids)) == PAPERS


def test_same_seed_same_bytes_other_seed_other_bytes(tmp_path: Path) -> None:
    def files(out: Path) -> dict[str, bytes]:
        return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*.gz"))}

    generate_sample_dump(tmp_path / "a", papers=60, shards=2, seed=3)
    generate_sample_dump(tmp_path / "b", papers=60, shards=2, seed=3)
    generate_sample_dump(tmp_path / "c", papers=60, shards=2, seed=4)
    a, b, c = files(tmp_path / "a"), files(tmp_path / "b"), files(tmp_path / "c")
    assert len(a) == 4 and a == b
    assert a.keys() == c.keys() and all(a[k] != c[k] for k in a)


def test_gzip_header_is_reproducible(dump: Dump) -> None:
    for path in sorted(dump.out.rglob("*.gz")):
        head = path.read_bytes()[:10]
        assert head[:3] == b"\x1f\x8b\x08"
        assert head[3] & 0x08 == 0, "no file name in the gzip header"
        assert head[4:8] == b"\x00\x00\x00\x00", "mtime must be 0"


def test_lines_are_plain_json_dumps(dump: Dump) -> None:
    path = dump.out / "20200705v1" / "full" / "metadata" / "metadata_0.jsonl.gz"
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    assert lines == [json.dumps(m, ensure_ascii=False) for m in dump.metadata_shards[0]]


def test_failed_generation_leaves_no_files(tmp_path: Path, monkeypatch) -> None:
    original = sample_dump._PaperWriter.metadata

    def exploding(self):
        if self.index == 5:
            raise RuntimeError("boom")
        return original(self)

    monkeypatch.setattr(sample_dump._PaperWriter, "metadata", exploding)
    with pytest.raises(RuntimeError):
        generate_sample_dump(tmp_path, papers=10, shards=1, seed=0)
    assert [p for p in tmp_path.rglob("*") if p.is_file()] == []


def test_summary_counts_match_files(dump: Dump) -> None:
    s = dump.summary
    assert s["papers"] == PAPERS and s["shards"] == SHARDS and s["release"] == "20200705v1"
    assert s["pdf_parses_per_shard"] == [len(p) for p in dump.pdf_shards]
    assert s["pdf_parses"] == len(dump.pdf)
    assert s["bytes_written"] == sum(p.stat().st_size for p in dump.out.rglob("*.gz"))
    assert sorted(s["files"]) == sorted(str(p.relative_to(dump.out)) for p in dump.out.rglob("*.gz"))
    assert sum(s["rejection_reasons"].values()) == PAPERS
    assert set(s["rejection_reasons"]) == {*CANDIDATE_CRITERIA, ACCEPTED}
    assert sum(s["citation_styles"].values()) == PAPERS


def test_tiny_dumps(tmp_path: Path) -> None:
    summary = generate_sample_dump(tmp_path, papers=1, shards=3, seed=0)
    assert summary["papers_per_shard"] == [0, 0, 1]
    assert len(list(tmp_path.rglob("*.gz"))) == 6
    empty = generate_sample_dump(tmp_path / "empty", papers=0, shards=1)
    assert empty["pdf_parses"] == 0


# ------------------------------------------------------------------------------------------------
# Schema against the real sample
# ------------------------------------------------------------------------------------------------

# Types the S2ORC documentation allows but the 1000-row excerpt happens not to show.
DOCUMENTED_EXTRA_TYPES = {
    ("metadata", "acl_id"): {"str"},  # "P19-1001" style ids; every excerpt row has null
    ("cite_span", "ref_id"): {"NoneType"},  # unresolved citation markers
    ("ref_span", "ref_id"): {"NoneType"},
}


def type_name(value) -> str:
    return type(value).__name__


class Shapes:
    """Allowed key orders and value types, per kind of object, learned from examples."""

    def __init__(self) -> None:
        self.orders: dict[str, set[tuple[str, ...]]] = {}
        self.types: dict[tuple[str, str], set[str]] = {}

    def learn(self, kind: str, obj: dict) -> None:
        self.orders.setdefault(kind, set()).add(tuple(obj))
        for key, value in obj.items():
            self.types.setdefault((kind, key), set()).add(type_name(value))

    def learn_item(self, kind: str, value) -> None:
        self.types.setdefault((kind, "item"), set()).add(type_name(value))


def walk_metadata(shapes: Shapes, record: dict) -> None:
    shapes.learn("metadata", record)
    for author in record["authors"]:
        shapes.learn("author", author)
        for middle in author["middle"]:
            shapes.learn_item("author.middle", middle)
    for key in ("mag_field_of_study", "outbound_citations", "inbound_citations"):
        for item in record[key] or []:
            shapes.learn_item(f"metadata.{key}", item)


def walk_pdf(shapes: Shapes, record: dict) -> None:
    shapes.learn("pdf_parse", record)
    for para in record["abstract"] + record["body_text"]:
        shapes.learn("paragraph", para)
        for span in para["cite_spans"]:
            shapes.learn("cite_span", span)
        for span in para["ref_spans"]:
            shapes.learn("ref_span", span)
    for key, entry in record["bib_entries"].items():
        assert re.fullmatch(r"BIBREF\d+", key)
        shapes.learn("bib_entry", entry)
        for author in entry["authors"]:
            shapes.learn("bib_author", author)
    for key, entry in record["ref_entries"].items():
        assert re.fullmatch(r"(FIG|TAB)REF\d+", key)
        shapes.learn("ref_entry", entry)
        shapes.learn_item("ref_entry.type", entry["type"])


@pytest.fixture(scope="module")
def real_shapes() -> Shapes:
    if not REAL_S2ORC.is_dir():
        pytest.skip(f"../shared/data not found: {SHARED_DATA}")
    shapes = Shapes()
    for path in (REAL_S2ORC / "metadata_sample.jsonl", REAL_S2ORC / "metadata_for_pdf_parses.jsonl"):
        for line in path.read_text(encoding="utf-8").splitlines():
            walk_metadata(shapes, json.loads(line))
    for path in sorted((REAL_S2ORC / "pdf_parses").glob("*.json")):
        walk_pdf(shapes, json.loads(path.read_text(encoding="utf-8")))
    for key, extra in DOCUMENTED_EXTRA_TYPES.items():
        shapes.types[key] |= extra
    return shapes


def test_key_orders_and_types_match_real_sample(dump: Dump, real_shapes: Shapes) -> None:
    ours = Shapes()
    for record in dump.metadata:
        walk_metadata(ours, record)
    for record in dump.pdf:
        walk_pdf(ours, record)
    for kind, orders in ours.orders.items():
        assert orders <= real_shapes.orders[kind], f"{kind}: unexpected key orders {orders - real_shapes.orders[kind]}"
    for key, types in ours.types.items():
        assert types <= real_shapes.types[key], f"{key}: unexpected types {types - real_shapes.types[key]}"
    # both metadata shapes (with and without a pdf parse) occur, as in the real sample
    assert ours.orders["metadata"] == real_shapes.orders["metadata"]


def test_value_formats(dump: Dump) -> None:
    for m in dump.metadata:
        assert m["paper_id"].isdigit()
        assert m["s2_url"] == f"https://api.semanticscholar.org/CorpusID:{m['paper_id']}"
        assert m["mag_id"] is None or re.fullmatch(r"\d+(,\d+)*", m["mag_id"])
        assert all(c.isdigit() for c in m["outbound_citations"] + m["inbound_citations"])
        assert m["mag_field_of_study"] is None or set(m["mag_field_of_study"]) <= set(MAG_FIELDS)
    for p in dump.pdf:
        assert re.fullmatch(r"[0-9a-f]{40}", p["_pdf_hash"])
        assert all(a["section"] == "Abstract" for a in p["abstract"])
        assert {e["type"] for e in p["ref_entries"].values()} <= {"figure", "table"}


# ------------------------------------------------------------------------------------------------
# Consistency between metadata and pdf_parses, spans, links
# ------------------------------------------------------------------------------------------------


def test_pdf_parses_hold_exactly_the_has_pdf_parse_papers_in_order(dump: Dump) -> None:
    for metas, parses in zip(dump.metadata_shards, dump.pdf_shards):
        assert [p["paper_id"] for p in parses] == [m["paper_id"] for m in metas if m["has_pdf_parse"]]


def test_flags_match_content(dump: Dump) -> None:
    for m in dump.metadata:
        assert m["has_outbound_citations"] == bool(m["outbound_citations"])
        assert m["has_inbound_citations"] == bool(m["inbound_citations"])
    for p in dump.pdf:
        m = dump.by_id[p["paper_id"]]
        assert m["has_pdf_parsed_abstract"] == bool(p["abstract"])
        assert m["has_pdf_parsed_body_text"] == bool(p["body_text"]) == m["has_pdf_body_text"]
        assert m["has_pdf_parsed_bib_entries"] == bool(p["bib_entries"])
        assert m["has_pdf_parsed_ref_entries"] == bool(p["ref_entries"])


def test_span_offsets_and_targets_are_valid(dump: Dump) -> None:
    n_spans = 0
    for parse, para in dump.paragraphs():
        text = para["text"]
        for span in para["cite_spans"] + para["ref_spans"]:
            assert 0 <= span["start"] < span["end"] <= len(text)
            assert text[span["start"] : span["end"]] == span["text"]
            n_spans += 1
        for span in para["cite_spans"]:
            assert span["ref_id"] is None or span["ref_id"] in parse["bib_entries"]
        for span in para["ref_spans"]:
            assert span["ref_id"] is None or span["ref_id"] in parse["ref_entries"]
            number = re.search(r"\d+", span["text"])
            prefix = "FIGREF" if span["text"].startswith("Fig") else "TABREF"
            assert span["ref_id"] in (None, f"{prefix}{int(number.group()) - 1}")
        starts = [s["start"] for s in para["cite_spans"]]
        assert starts == sorted(starts)
    assert n_spans > 1000


def test_bib_links_point_to_dump_papers_with_abstracts(dump: Dump) -> None:
    n_links = 0
    for parse in dump.pdf:
        links = [e["link"] for e in parse["bib_entries"].values() if e["link"] is not None]
        if parse["bib_entries"]:
            assert links == [] or sorted(links) == sorted(dump.by_id[parse["paper_id"]]["outbound_citations"])
        for link in links:
            assert link in dump.by_id
            assert dump.by_id[link]["abstract"]
            n_links += 1
    assert n_links > 500
    assert any(e["link"] is None for p in dump.pdf for e in p["bib_entries"].values())


def test_citation_graph_is_consistent_inside_the_dump(dump: Dump) -> None:
    edges = {(m["paper_id"], cited) for m in dump.metadata for cited in m["outbound_citations"]}
    inbound = {(citer, m["paper_id"]) for m in dump.metadata for citer in m["inbound_citations"] if citer in dump.by_id}
    assert edges == inbound
    assert all(cited in dump.by_id for _, cited in edges)
    assert all(citer != cited for citer, cited in edges)
    # papers outside the dump cite some papers too (the dump is a slice of a larger corpus)
    assert any(c not in dump.by_id for m in dump.metadata for c in m["inbound_citations"])


def test_abstract_for_matches_metadata(dump: Dump) -> None:
    assert [abstract_for(SEED, i) for i in range(PAPERS)] == [m["abstract"] for m in dump.metadata]
    for p in dump.pdf:
        m = dump.by_id[p["paper_id"]]
        if p["abstract"] and m["abstract"]:
            assert " ".join(a["text"] for a in p["abstract"]) == m["abstract"]


# ------------------------------------------------------------------------------------------------
# Candidate filter: an independent re-implementation of the 9 criteria
# ------------------------------------------------------------------------------------------------


def test_rejection_counts_match_independent_check(dump: Dump) -> None:
    counted = Counter(first_failed_criterion(m) for m in dump.metadata)
    assert dict(counted) == {k: v for k, v in dump.summary["rejection_reasons"].items() if v}
    for criterion in CANDIDATE_CRITERIA:
        assert counted[criterion] >= 1, criterion
    assert 0.6 <= counted["accepted"] / PAPERS <= 0.7
    # both spellings of "missing" occur
    assert {repr(m["mag_field_of_study"]) for m in dump.metadata if not m["mag_field_of_study"]} == {"None", "[]"}
    assert {repr(m["abstract"]) for m in dump.metadata if not m["abstract"]} == {"None", "''"}


def test_each_criterion_is_hit_even_in_small_dumps(tmp_path: Path) -> None:
    summary = generate_sample_dump(tmp_path, papers=200, shards=1, seed=123)
    assert all(summary["rejection_reasons"][c] >= 3 for c in CANDIDATE_CRITERIA)


def test_intended_first_failure_is_exposed(dump: Dump) -> None:
    assert [sample_dump.intended_first_failure(SEED, i) for i in range(PAPERS)] == [
        first_failed_criterion(m) for m in dump.metadata
    ]


# ------------------------------------------------------------------------------------------------
# Memory
# ------------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_memory_does_not_grow_with_papers(tmp_path: Path) -> None:
    """Streaming: the traced peak stays small and flat when the number of papers grows 5x.

    (tracemalloc slows generation several times, so this uses hundreds of papers rather than
    tens of thousands; the bounded per-paper caches are full after ~130 papers, so both runs are
    in the steady state.)"""

    def peak(papers: int) -> int:
        for cache in (sample_dump._identity, sample_dump._abstract_parts, sample_dump._citation_mask):
            cache.cache_clear()
        tracemalloc.start()
        try:
            generate_sample_dump(tmp_path / str(papers), papers=papers, shards=1, seed=1)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    small, large = peak(150), peak(750)
    assert large < 20 * 1024 * 1024
    assert large < small * 1.25 + 512 * 1024, (small, large)
