"""Tests of the synthetic S2ORC 20200705v1 dump generator.

The schema checks compare with the real excerpts in ../shared/data (skipped when absent); the
content checks re-implement the candidate filter and a small CiteWorth paragraph check
independently of the generator, so that a generator bug cannot hide behind its own bookkeeping.
"""

from __future__ import annotations

import gzip
import json
import re
import tracemalloc
from collections import Counter
from pathlib import Path

import pytest

from citeworth_assets.samples import s2orc as sample_dump
from citeworth_assets.samples.s2orc import (
    ACCEPTED,
    CANDIDATE_CRITERIA,
    MAG_FIELDS,
    abstract_for,
    generate_sample_dump,
    paper_id_for,
)

SHARED_DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
REAL_S2ORC = SHARED_DATA / "s2orc-20200705"

SEED = 7
PAPERS = 300
SHARDS = 3


def read_jsonl_gz(path: Path) -> list[dict]:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


class Dump:
    """A generated dump read back into memory (small, so that is fine here)."""

    def __init__(self, out: Path, summary: dict, shards: int, release: str = "20200705v1") -> None:
        self.out, self.summary = out, summary
        full = out / release / "full"
        self.metadata_shards = [read_jsonl_gz(full / "metadata" / f"metadata_{i}.jsonl.gz") for i in range(shards)]
        self.pdf_shards = [read_jsonl_gz(full / "pdf_parses" / f"pdf_parses_{i}.jsonl.gz") for i in range(shards)]
        self.metadata = [m for shard in self.metadata_shards for m in shard]
        self.pdf = [p for shard in self.pdf_shards for p in shard]
        self.by_id = {m["paper_id"]: m for m in self.metadata}

    def paragraphs(self):
        for parse in self.pdf:
            for para in parse["abstract"] + parse["body_text"]:
                yield parse, para

    def body_paragraphs(self):
        for parse in self.pdf:
            for para in parse["body_text"]:
                yield parse, para


@pytest.fixture(scope="module")
def dump(tmp_path_factory) -> Dump:
    out = tmp_path_factory.mktemp("dump")
    summary = generate_sample_dump(out, papers=PAPERS, shards=SHARDS, seed=SEED)
    return Dump(out, summary, SHARDS)


# ------------------------------------------------------------------------------------------------
# Layout, determinism, atomicity
# ------------------------------------------------------------------------------------------------


def test_layout_and_file_names(dump: Dump) -> None:
    full = dump.out / "20200705v1" / "full"
    assert sorted(p.name for p in (full / "metadata").iterdir()) == [f"metadata_{i}.jsonl.gz" for i in range(SHARDS)]
    assert sorted(p.name for p in (full / "pdf_parses").iterdir()) == [f"pdf_parses_{i}.jsonl.gz" for i in range(SHARDS)]
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
            assert text[span["start"]:span["end"]] == span["text"]
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


def first_failed_criterion(m: dict) -> str:
    if not m["mag_field_of_study"]:
        return "mag_field_of_study"
    if not m["has_inbound_citations"]:
        return "has_inbound_citations"
    if not m["has_pdf_parse"]:
        return "has_pdf_parse"
    for flag in ("has_pdf_parsed_abstract", "has_pdf_parsed_body_text", "has_pdf_parsed_bib_entries",
                 "has_pdf_parsed_ref_entries"):
        if not m[flag]:
            return flag
    if not m["abstract"]:
        return "abstract"
    if not any(m[k] for k in ("journal", "venue", "arxiv_id", "acl_id", "pubmed_id", "pmc_id")):
        return "venue_or_id"
    return "accepted"


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
# Content: fields, citation forms, noise
# ------------------------------------------------------------------------------------------------


def test_all_mag_fields_and_multi_field_papers(dump: Dump) -> None:
    assert len(MAG_FIELDS) == 19 and len(set(MAG_FIELDS)) == 19
    seen = Counter(f for m in dump.metadata for f in m["mag_field_of_study"] or [])
    assert set(seen) == set(MAG_FIELDS)
    sizes = Counter(len(m["mag_field_of_study"]) for m in dump.metadata if m["mag_field_of_study"])
    multi = sizes[2] + sizes[3]
    assert sizes[2] and sizes[3]
    assert 0.07 <= multi / sum(sizes.values()) <= 0.25


def spans_of(dump: Dump) -> list[str]:
    return [s["text"] for _, para in dump.paragraphs() for s in para["cite_spans"]]


def test_numeric_citation_forms(dump: Dump) -> None:
    spans = spans_of(dump)
    for pattern in (r"\[\d+\]", r"\[\d+(, \d+)+\]", r"\[\d+(,\d+)+\]", r"\[\d+-\d+\]", r"\d+,?"):
        assert any(re.fullmatch(pattern, s) for s in spans), pattern
    texts = [para["text"] for _, para in dump.paragraphs()]
    assert any(re.search(r"\[\d+\]–\[\d+\]", t) for t in texts)
    # three separate adjacent spans "[1] [2] [3]"
    adjacent = 0
    for _, para in dump.paragraphs():
        cs = para["cite_spans"]
        for a, b, c in zip(cs, cs[1:], cs[2:]):
            if b["start"] == a["end"] + 1 and c["start"] == b["end"] + 1 and all(s["text"].startswith("[") for s in (a, b, c)):
                adjacent += 1
    assert adjacent


def test_author_year_citation_forms(dump: Dump) -> None:
    spans = spans_of(dump)
    year = r"(\d{4}[a-z]?|n\.d\.)"
    assert any(re.fullmatch(rf"\([^()]+ et al\., {year}\)", s) for s in spans)
    assert any(re.fullmatch(rf"\([^();]+, {year}(; [^();]+, {year})+\)", s) for s in spans)
    assert any(re.fullmatch(rf"\([^();,]+ {year}\)", s) for s in spans)
    # S2ORC-style split spans: "(A and B 2004;" + "C et al. 2005a" + " )"
    assert any(re.fullmatch(rf"\([^()]+ {year};", s) for s in spans)
    texts = [para["text"] for _, para in dump.paragraphs()]
    assert any(re.search(r"\d{4}[a-z]? \)\.", t) for t in texts)
    # inline: "Smith et al. (2019) showed that" with either span shape
    assert any(re.fullmatch(rf"[A-Z][^()]+ \({year}\)", s) for s in spans)
    assert any(re.fullmatch(rf"\({year}\)", s) for s in spans)


def test_citation_positions(dump: Dump) -> None:
    texts = [para["text"] for _, para in dump.paragraphs()]
    joined = "\n".join(texts)
    # mid-sentence and inline
    assert re.search(r"(As in|Following|Unlike) (\[\d+|\()[^.]*?, we use", joined)
    assert re.search(r" (showed|reported|argued|found) that ", joined)
    # at the end of the sentence, before the period
    assert re.search(r"\[\d+\]\.", joined) and re.search(r"\d{4}[a-z]?\)\.", joined)
    assert re.search(r"\[\d+\] \.", joined)  # S2ORC keeps a space before the period
    # hanging phrases before a citation
    assert re.search(r"as shown by \[\d+", joined)
    assert re.search(r"see for example \(", joined)
    assert re.search(r" as in \[\d+", joined)


def test_missed_citations_are_present(dump: Dump) -> None:
    def uncovered(para: dict, match: re.Match) -> bool:
        return not any(s["start"] <= match.start() < s["end"] for s in para["cite_spans"])

    bracket = year = 0
    for _, para in dump.body_paragraphs():
        bracket += any(uncovered(para, m) for m in re.finditer(r"\[\d+\]", para["text"]))
        year += any(uncovered(para, m) for m in re.finditer(r"\([A-Z][\w'\- ]+, \d{4}\)", para["text"]))
    assert bracket and year


def test_text_noise_and_traps(dump: Dump) -> None:
    texts = [para["text"] for _, para in dump.paragraphs()]
    joined = "\n".join(texts)
    needles = ("[1.5]", "[2/3]", "metal", "fetal", "Fig. ", "Eq. ", "Ref. ", "cf. ", "e.g. ", "i.e. ", " et al. ", "(1)",
               "\u00a0", "–")
    for needle in needles:
        assert needle in joined, needle
    assert re.search(r"[α-ωΑ-Ω]", joined)
    assert any(t.startswith(". Illustration of") for t in texts)
    assert any(re.match(r"[a-z]", t.split(". ")[-1]) for t in texts)  # lower-case sentence starts
    assert any(t and t[-1] not in ".!?" for t in texts)  # missing final period
    lengths = [len(t) for t in texts]
    assert max(lengths) > 3000  # a few very long paragraphs


def test_section_titles(dump: Dump) -> None:
    sections = {para["section"] for _, para in dump.body_paragraphs()}
    expected = ("", "1 Introduction", "II. RELATED WORK", "INTRODUCTION", "Methods:", "RELATED WORKS", "Introduction",
                "Related Work", "Acknowledgments", "Materials", "Proof of Theorem 2")
    for title in expected:
        assert title in sections, title


def test_figure_and_table_reference_spans(dump: Dump) -> None:
    refs = [(s["text"], s["ref_id"]) for _, para in dump.paragraphs() for s in para["ref_spans"]]
    assert ("Fig. 2", "FIGREF1") in refs
    assert ("Table 1", "TABREF0") in refs


def test_metadata_noise(tmp_path: Path, dump: Dump) -> None:
    assert any(m["year"] is None for m in dump.metadata)
    assert any(a["first"] == "" for m in dump.metadata for a in m["authors"])
    assert any(m["mag_id"] and "," in m["mag_id"] for m in dump.metadata)
    assert any(re.search(r"(Journal of Applied Research|1 Introduction|Running title)", m["title"]) for m in dump.metadata)
    assert any(e["year"] == "" and e["authors"] == [] for p in dump.pdf for e in p["bib_entries"].values())


# ------------------------------------------------------------------------------------------------
# Content: CiteWorth acceptance, learnability, CiteSum
# ------------------------------------------------------------------------------------------------

PERMISSIBLE_TITLES = {
    "introduction", "abstract", "method", "methods", "results", "discussion", "discussions",
    "conclusion", "conclusions", "results and discussion", "related work", "experimental results",
    "literature review", "experiments", "background", "methodology", "conclusions and future work",
    "related works", "limitations", "procedure", "material and methods", "discussion and conclusion",
    "implementation", "evaluation", "performance evaluation", "experiments and results", "overview",
    "experimental design", "discussion and conclusions", "results and discussions", "motivation",
    "proposed method", "analysis", "future work", "results and analysis", "implementation details",
}
BRACKET_CITATION = re.compile(r"\[([0-9]+\s*[,-;]*\s*)*[0-9]+\s*\]")
YEAR_CITATION = re.compile(r"\(?[12][0-9]{3}[a-z]?\s*\)")
HANGING = re.compile(
    r"\s+\(?(\(\s*\)|like|reference|including|include|with|for instance|for example|see also|at|following|of|from|to|in|by|"
    r"see|as|e\.?g\.?(,)?|viz(\.)?(,)?)\s*(,)*(-)*[\)\]]?\s*[.?!]\s*$"
)
ABBREVIATIONS = ("Fig", "Eq", "Ref", "cf", "e.g", "i.e", "et al", "al")


def normalise_section(title: str) -> str:
    title = re.sub(r"^(\d+(\.\d+)*|[IVX]+)[.)]?\s+", "", title.strip())
    return title.rstrip(":").strip().lower()


def split_sentences(para: dict) -> list[tuple[int, int]]:
    """A small splitter: at '.', '!' or '?' plus spaces, unless inside a cite span or after an
    abbreviation; good enough for the clean paragraphs the generator plants."""
    text, bounds, start = para["text"], [], 0
    for match in re.finditer(r"[.!?]\s+", text):
        pos = match.start()
        if any(s["start"] <= pos < s["end"] for s in para["cite_spans"]):
            continue
        if any(text[:pos].endswith(a) for a in ABBREVIATIONS):
            continue
        bounds.append((start, pos + 1))
        start = match.end()
    if start < len(text):
        bounds.append((start, len(text)))
    return bounds


def sentence_verdict(para: dict, start: int, end: int) -> tuple[bool, bool]:
    """(passes CiteWorth's sentence checks, is cite-worthy)."""
    text = para["text"]
    spans = [s for s in para["cite_spans"] if start <= s["start"] < end]
    if any(s["end"] > end for s in spans):
        return False, False  # crosses a sentence boundary
    kept, pos = [], start
    for s in spans:
        kept.append(text[pos:s["start"]])
        pos = s["end"]
    kept.append(text[pos:end])
    if spans:
        tail = "".join(kept[1:])
        if not re.fullmatch(r"[\s.;,)\]–-]*[.!?]?\s*", tail):
            return False, False  # citation not at the end
        marker = text[spans[0]["start"]:end]
        if not (BRACKET_CITATION.search(marker) or YEAR_CITATION.search(marker)):
            return False, False
    cleaned = "".join(kept[:1]) if spans else "".join(kept)
    if BRACKET_CITATION.search(cleaned) or YEAR_CITATION.search(cleaned):
        return False, False  # a citation S2ORC missed
    cleaned = cleaned.rstrip()
    cleaned = (cleaned.rstrip(" ,;:)]–-") + ".") if spans else cleaned
    if spans and HANGING.search(cleaned):
        return False, False
    ok = len(cleaned) >= 20 and cleaned[:1].isupper() and cleaned[-1:] in ".!?"
    return ok, bool(spans)


def citeworth_paragraphs(dump: Dump):
    """Yield (paragraph, accepted, [cite-worthy flags]) for permissible paragraphs of candidate papers."""
    for parse in dump.pdf:
        if first_failed_criterion(dump.by_id[parse["paper_id"]]) != "accepted":
            continue
        permissible = [p for p in parse["body_text"] if normalise_section(p["section"]) in PERMISSIBLE_TITLES]
        first = next((s["text"] for p in parse["body_text"] for s in p["cite_spans"]), "")
        paper_ok = sum(len(p["cite_spans"]) for p in permissible) > 5 and bool(
            re.fullmatch(r"\[\d+\]", first) or YEAR_CITATION.search(first)
        )
        for para in permissible:
            bounds = split_sentences(para)
            verdicts = [sentence_verdict(para, s, e) for s, e in bounds]
            accepted = paper_ok and len(bounds) >= 3 and all(ok for ok, _ in verdicts)
            yield para, accepted, [cw for _, cw in verdicts]


def test_citeworth_rules_accept_a_good_share_and_reject_the_rest(dump: Dump) -> None:
    results = list(citeworth_paragraphs(dump))
    accepted = [r for r in results if r[1]]
    share = len(accepted) / len(results)
    assert 0.25 <= share <= 0.8, share
    labels = [cw for _, _, flags in accepted for cw in flags]
    assert 0.15 <= sum(labels) / len(labels) <= 0.6
    assert len(accepted) >= 300


def test_cite_worthy_sentences_are_lexically_learnable(dump: Dump) -> None:
    cue = re.compile(
        r"has been|have been|previous|was reported|were reported|widely|well known|earlier|"
        r"several groups|many previous|prior research|recent reviews|studied extensively",
        re.IGNORECASE,
    )
    hits = Counter()
    for para, accepted, _ in citeworth_paragraphs(dump):
        if not accepted:
            continue
        for start, end in split_sentences(para):
            cited = any(start <= s["start"] < end for s in para["cite_spans"])
            hits[(cited, bool(cue.search(para["text"][start:end])))] += 1
    cited_rate = hits[(True, True)] / (hits[(True, True)] + hits[(True, False)])
    plain_rate = hits[(False, True)] / (hits[(False, True)] + hits[(False, False)])
    assert cited_rate > 0.8 and plain_rate < 0.3, (cited_rate, plain_rate)


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def test_related_work_sentences_paraphrase_the_cited_abstract(dump: Dump) -> None:
    """CiteSum keeps Related Work sentences citing one linked paper with high ROUGE recall."""
    kept = 0
    for parse, para in dump.body_paragraphs():
        if "related" not in para["section"].lower() and "background" not in para["section"].lower():
            continue
        for start, end in split_sentences(para):
            spans = [s for s in para["cite_spans"] if start <= s["start"] < end]
            if len(spans) != 1 or spans[0]["ref_id"] is None:
                continue
            link = parse["bib_entries"][spans[0]["ref_id"]]["link"]
            if link is None:
                continue
            sentence = para["text"][start:spans[0]["start"]] + para["text"][spans[0]["end"]:end]
            abstract = set(words(dump.by_id[link]["abstract"]))
            tokens = words(sentence)
            if tokens and sum(t in abstract for t in tokens) / len(tokens) >= 0.5:
                kept += 1
    assert kept >= 30


def test_paragraph_lengths(dump: Dump) -> None:
    counts = [len(split_sentences(para)) for _, para in dump.body_paragraphs() if len(para["text"]) > 60]
    share = sum(3 <= c <= 8 for c in counts) / len(counts)
    assert share >= 0.6
    assert any(c < 3 for c in counts)


# ------------------------------------------------------------------------------------------------
# Memory
# ------------------------------------------------------------------------------------------------


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
