"""The S2AG release of the sample (issue 30): layout, the real files' shape, their faults, and parity with the
2020 layout on the generator side (each clean paper's paragraphs, sections and citation spans are the same text).

The shape checks compare key sets with the real S2AG records in ../shared/data/s2ag-2023 (skipped when absent).
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from s2orc_dump import read_jsonl_gz

from citeworth_assets.cli import main
from citeworth_assets.samples.s2ag import (
    BODY_FAULTS,
    DATASETS,
    DEFAULT_RELEASE,
    FAULTS,
    generate_s2ag_release,
    generate_sample,
)

SEED, PAPERS, SHARDS = 7, 160, 2
FILE_NAME = re.compile(r"^\d{8}_\d{6}_\d{5}_[a-z]{5}_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.gz$")
# The s2orc_v2 annotation keys as the published description names them (the generator is checked against these)
V2_BODY = set(
    "paragraph section_header sentence bib_ref figure_ref table_ref formula figure table figure_caption "
    "table_caption".split()
)
V2_BIBLIOGRAPHY = set(
    "bib_entry bib_title bib_author bib_author_first_name bib_author_last_name bib_venue bib_date".split()
)


class Release:
    """The generated S2AG datasets read back (raw lines too, for the encoding faults)."""

    def __init__(self, out: Path, summary: dict) -> None:
        self.out, self.summary = out, summary
        self.root = out / "s2ag" / DEFAULT_RELEASE
        self.raw = {dataset: [] for dataset in DATASETS}
        for dataset in DATASETS:
            for path in sorted((self.root / dataset).iterdir()):
                with gzip.open(path, "rb") as handle:
                    self.raw[dataset] += [line for line in handle.read().split(b"\n") if line]
        self.rows = {
            dataset: [json.loads(line.decode("utf-8", "replace")) for line in lines]
            for dataset, lines in self.raw.items()
        }
        self.by_id = {dataset: {row["corpusid"]: row for row in rows} for dataset, rows in self.rows.items()}
        full = out / "20200705v1" / "full"
        self.metadata = {
            m["paper_id"]: m for path in sorted((full / "metadata").iterdir()) for m in read_jsonl_gz(path)
        }
        self.parses = {
            p["paper_id"]: p for path in sorted((full / "pdf_parses").iterdir()) for p in read_jsonl_gz(path)
        }
        self.faults = summary["s2ag"]["faults"]
        self.faulty = {paper for papers in self.faults.values() for paper in papers}
        self.body_faulty = {paper for name in BODY_FAULTS for paper in self.faults[name]}


@pytest.fixture(scope="module")
def release(tmp_path_factory) -> Release:
    out = tmp_path_factory.mktemp("s2ag")
    return Release(out, generate_sample(out, papers=PAPERS, shards=SHARDS, seed=SEED, layout="both"))


def spans(value: str | None) -> list[dict]:
    return json.loads(value) if value else []


def unique(value: str | None) -> list[dict]:
    """The distinct spans of an annotation, by position."""
    seen = {(span["start"], span["end"]): span for span in spans(value)}
    return [seen[key] for key in sorted(seen)]


def real_rows(shared_data: Path, dataset: str) -> list[dict]:
    rows = []
    for path in sorted((shared_data / "s2ag-2023" / dataset).iterdir()):
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            rows += [json.loads(line) for line in handle]
    return rows


# -- layout ------------------------------------------------------------------------------------------------------


def test_release_layout_one_opaque_file_per_dataset_and_shard(release: Release) -> None:
    assert sorted(p.name for p in release.root.iterdir()) == sorted(DATASETS)
    for dataset in DATASETS:
        names = [p.name for p in (release.root / dataset).iterdir()]
        assert len(names) == SHARDS and all(FILE_NAME.match(name) for name in names), names
    assert release.summary["s2ag"]["records"] == {dataset: len(rows) for dataset, rows in release.rows.items()}
    with_parse = [pid for pid, m in release.metadata.items() if m["has_pdf_parse"]]
    assert sorted(release.by_id["s2orc"]) == sorted(release.by_id["s2orc_v2"]) == sorted(map(int, with_parse))
    assert sorted(release.by_id["papers"]) == sorted(map(int, release.metadata))


def test_s2ag_alone_writes_the_same_bytes_and_no_2020_files(release: Release, tmp_path: Path) -> None:
    summary = generate_s2ag_release(tmp_path, papers=PAPERS, shards=SHARDS, seed=SEED)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s2ag"]
    assert summary["s2ag"]["faults"] == release.faults
    assert summary["rejection_reasons"] == release.summary["rejection_reasons"]
    for name in summary["s2ag"]["files"]:
        assert (tmp_path / name).read_bytes() == (release.out / name).read_bytes(), name


def test_cli_layouts(tmp_path: Path) -> None:
    runner = CliRunner()
    layouts = (("2020", ["20200705v1"]), ("s2ag", ["s2ag"]), ("both", ["20200705v1", "s2ag"]))
    for layout, expected in layouts:  # and the SciTLDR-A sample for CiteSum's transfer, whatever the layout
        out = tmp_path / layout
        result = runner.invoke(main, ["generate-sample", "--out", str(out), "--papers", "12", "--layout", layout])
        assert result.exit_code == 0, result.output
        assert sorted(p.name for p in out.iterdir() if p.is_dir()) == sorted([*expected, "scitldr"])
        assert ("S2AG release in s2ag/" in result.output) == (layout != "2020")
        assert "scitldr/SciTLDR-A" in result.output and len(result.output.splitlines()) <= 6
    for name in ("metadata", "pdf_parses"):  # the 2020 files do not change when the S2AG release is written beside
        for path in (tmp_path / "2020" / "20200705v1" / "full" / name).iterdir():
            assert path.read_bytes() == (tmp_path / "both" / path.relative_to(tmp_path / "2020")).read_bytes()


# -- the real files' shape ----------------------------------------------------------------------------------------


def test_s2orc_records_have_the_real_shape(release: Release, shared_data: Path) -> None:
    real = real_rows(shared_data, "s2orc")
    for row in release.rows["s2orc"]:
        for model in real:
            assert row.keys() == model.keys()
            assert row["externalids"].keys() == model["externalids"].keys()
            assert row["content"].keys() == model["content"].keys()
            assert row["content"]["source"].keys() == model["content"]["source"].keys()
            assert list(row["content"]["annotations"]) == list(model["content"]["annotations"])
        oainfo = row["content"]["source"]["oainfo"]
        assert oainfo is None or oainfo.keys() == {"license", "openaccessurl", "status"}
        assert all(value is None or type(value) is str for value in row["content"]["annotations"].values())


def test_span_lists_have_the_real_span_shape(release: Release, shared_data: Path) -> None:
    real_attributes = set()
    for model in real_rows(shared_data, "s2orc"):
        for key, value in model["content"]["annotations"].items():
            real_attributes |= {(key, tuple(span.get("attributes", {}))) for span in spans(value)}
    ours = set()
    for row in release.rows["s2orc"]:
        for key, value in row["content"]["annotations"].items():
            if row["corpusid"] in release.faults["unparsable_annotation"] and key == "bibref":
                continue
            for span in spans(value):
                assert list(span) in (["end", "start"], ["attributes", "end", "start"])
                assert span["start"] < span["end"], (row["corpusid"], key, span)  # no empty span: readers drop them
                ours.add((key, tuple(span.get("attributes", {}))))
    assert ours <= real_attributes, ours - real_attributes
    assert ("bibentry", ("id", "matched_paper_id")) in ours and ("sectionheader", ("n",)) in ours


def test_papers_and_abstracts_rows_have_the_real_shape(release: Release, shared_data: Path) -> None:
    for dataset in ("papers", "abstracts"):
        model = real_rows(shared_data, dataset)[0]
        for row in release.rows[dataset]:
            assert list(row) == list(model), dataset
            if dataset == "papers":
                assert list(row["externalids"]) == list(model["externalids"])
                assert all(list(a) == ["authorId", "name"] for a in row["authors"])
                assert all(list(f) == ["category", "source"] for f in row["s2fieldsofstudy"] or [])
                assert row["journal"] is None or list(row["journal"]) == ["name", "pages", "volume"]
                assert type(row["venue"]) is str and type(row["corpusid"]) is int
            else:
                assert list(row["openaccessinfo"]) == list(model["openaccessinfo"])
                assert list(row["openaccessinfo"]["externalids"]) == list(model["openaccessinfo"]["externalids"])


def test_s2orc_v2_records_have_the_fixed_shape(release: Release) -> None:
    for row in release.rows["s2orc_v2"]:
        assert list(row) == ["corpusid", "title", "authors", "openaccessinfo", "body", "bibliography"]
        assert list(row["openaccessinfo"]) == ["externalids", "license", "url", "status"]
        assert list(row["body"]) == list(row["bibliography"]) == ["text", "annotations"]
        assert set(row["body"]["annotations"]) == V2_BODY
        assert set(row["bibliography"]["annotations"]) == V2_BIBLIOGRAPHY


# -- faults -------------------------------------------------------------------------------------------------------


def test_every_span_list_is_repeated_two_or_three_times(release: Release) -> None:
    repeats = {2: 0, 3: 0}
    for row, annotation_sets in _annotation_sets(release):
        times = set()
        for keyed in annotation_sets:
            for key, value in keyed.items():
                if value is None or (key in ("bibref", "bib_ref") and row in release.faults["unparsable_annotation"]):
                    continue
                listed = json.loads(value)
                distinct = len({json.dumps(span, sort_keys=True) for span in listed})
                assert len(listed) in (2 * distinct, 3 * distinct), (row, key)
                times.add(len(listed) // distinct)
        assert len(times) == 1, row
        repeats[times.pop()] += 1
    assert repeats[2] and repeats[3]
    assert {int(k): v * 2 for k, v in release.summary["s2ag"]["span_repeats"].items()} == repeats


def _annotation_sets(release: Release):
    for row in release.rows["s2orc"]:
        yield row["corpusid"], [row["content"]["annotations"]]
    for row in release.rows["s2orc_v2"]:
        yield row["corpusid"], [row["body"]["annotations"], row["bibliography"]["annotations"]]


def test_each_fault_is_planted_once_per_shard_and_shows(release: Release) -> None:
    assert set(release.faults) == set(FAULTS)
    assert all(len(papers) == SHARDS for papers in release.faults.values()), release.faults
    assert len(release.faulty) == len(FAULTS) * SHARDS  # a small known set: a paper carries one fault
    for row in release.rows["s2orc"]:
        pid = row["corpusid"]
        text, a = row["content"]["text"], row["content"]["annotations"]
        v2 = release.by_id["s2orc_v2"][pid]
        body, b = v2["body"]["text"], v2["body"]["annotations"]
        fault = next((name for name, papers in release.faults.items() if pid in papers), None)
        null_headers = a["sectionheader"] is None and a["paragraph"] is not None
        v2_null_headers = b["section_header"] is None and b["paragraph"] is not None
        assert null_headers == (fault == "null_annotation") == v2_null_headers
        if fault == "unparsable_annotation":
            for value in (a["bibref"], b["bib_ref"]):
                with pytest.raises(json.JSONDecodeError):
                    json.loads(value)
        past = any(s["end"] > len(text) for s in unique(a["paragraph"]))
        assert past == (fault == "span_past_text_end") == any(s["end"] > len(body) for s in unique(b["paragraph"]))
        assert _overlap(a["paragraph"]) == (fault == "overlapping_spans") == _overlap(b["paragraph"])
        if fault not in ("unparsable_annotation", "null_annotation"):
            entries = {s["attributes"]["id"] for s in spans(a["bibentry"])}
            named = {s["attributes"]["ref_id"] for s in spans(a["bibref"]) if "attributes" in s}
            assert bool(named - entries) == (fault == "bibref_without_entry"), pid
        title = unique(a["title"])[0]
        assert ("\n" in text[title["start"] : title["end"]]) == (fault == "title_with_newline") == ("\n" in v2["title"])
        assert ("\n" in release.by_id["papers"][pid]["title"]) == (fault == "title_with_newline")
    for dataset in ("s2orc", "s2orc_v2"):
        ids = [row["corpusid"] for row in release.rows[dataset]]
        lines = dict(zip(ids, release.raw[dataset]))
        assert {pid for pid, line in lines.items() if b"\\ud835" in line} == set(release.faults["lone_surrogate"])
        assert {pid for pid, line in lines.items() if b"\xff" in line} == set(release.faults["bad_byte"])
        for pid in release.faults["bad_byte"]:
            with pytest.raises(UnicodeDecodeError):
                lines[pid].decode("utf-8")
        for pid in release.faults["lone_surrogate"]:  # an escape JSON parsers read as the surrogate itself
            assert "\ud835" in json.dumps(release.by_id[dataset][pid], ensure_ascii=False)


def _overlap(value: str | None) -> bool:
    found = unique(value)
    return any(b["start"] < a["end"] for a, b in zip(found, found[1:]))


# -- parity with the 2020 layout ----------------------------------------------------------------------------------


def _sections(headers: list[dict], paragraphs: list[dict], text: str) -> list[str]:
    """The section of each paragraph: the text of the nearest header before it, stripped ("" before the first)."""
    sections = []
    for paragraph in paragraphs:
        before = [h for h in headers if h["end"] <= paragraph["start"]]
        sections.append(text[before[-1]["start"] : before[-1]["end"]].strip() if before else "")
    return sections


@pytest.mark.parametrize("dataset", ["s2orc", "s2orc_v2"])
def test_clean_papers_read_as_their_2020_paragraphs_sections_and_citations(release: Release, dataset: str) -> None:
    compared = 0
    for pid, parse in release.parses.items():
        if int(pid) in release.body_faulty:
            continue
        row = release.by_id[dataset][int(pid)]
        if dataset == "s2orc":
            text, a, names = row["content"]["text"], row["content"]["annotations"], ("paragraph", "sectionheader")
            names += ("bibtitle",)
            bib_text, bib_annotations, entries = text, a, unique(a["bibentry"])
            cites = unique(a["bibref"])
        else:
            text, a, names = (
                row["body"]["text"],
                row["body"]["annotations"],
                ("paragraph", "section_header", "bib_title"),
            )
            bib_text, bib_annotations = row["bibliography"]["text"], row["bibliography"]["annotations"]
            entries = unique(bib_annotations["bib_entry"])
            cites = unique(a["bib_ref"])
        paragraphs, headers = unique(a[names[0]]), unique(a[names[1]])
        body = parse["body_text"]
        assert [text[p["start"] : p["end"]] for p in paragraphs] == [p["text"] for p in body], pid
        assert _sections(headers, paragraphs, text) == [p["section"] for p in body], pid
        assert [text[c["start"] : c["end"]] for c in cites] == [s["text"] for p in body for s in p["cite_spans"]]
        expected_refs = [s["ref_id"] and "b" + s["ref_id"][6:] for p in body for s in p["cite_spans"]]
        assert [c.get("attributes", {}).get("ref_id") for c in cites] == expected_refs
        links = {e["attributes"]["id"]: e["attributes"].get("matched_paper_id") for e in entries}
        assert links == {"b" + k[6:]: e["link"] and int(e["link"]) for k, e in parse["bib_entries"].items()}
        titles = [bib_text[t["start"] : t["end"]] for t in unique(bib_annotations[names[2]])]
        assert titles == [e["title"] for e in parse["bib_entries"].values()]
        compared += 1
    assert compared >= len(release.parses) - len(BODY_FAULTS) * SHARDS


def test_missing_2020_parts_are_null_annotations(release: Release) -> None:
    for row in release.rows["s2orc"]:
        meta, a = release.metadata[str(row["corpusid"])], row["content"]["annotations"]
        assert (a["abstract"] is not None) == meta["has_pdf_parsed_abstract"]
        assert (a["paragraph"] is not None) == meta["has_pdf_parsed_body_text"]
        assert (a["bibentry"] is not None) == meta["has_pdf_parsed_bib_entries"]
        assert (a["figure"] is not None) == meta["has_pdf_parsed_ref_entries"]
        v2 = release.by_id["s2orc_v2"][row["corpusid"]]
        assert (v2["body"]["annotations"]["paragraph"] is not None) == meta["has_pdf_parsed_body_text"]
        assert (v2["bibliography"]["annotations"]["bib_entry"] is not None) == meta["has_pdf_parsed_bib_entries"]


def test_papers_and_abstracts_carry_the_2020_metadata(release: Release) -> None:
    abstracts = release.by_id["abstracts"]
    for pid, meta in release.metadata.items():
        row = release.by_id["papers"][int(pid)]
        external = [f["category"] for f in row["s2fieldsofstudy"] or [] if f["source"] == "external"]
        assert external == (meta["mag_field_of_study"] or [])
        assert row["s2fieldsofstudy"] == meta["mag_field_of_study"] or meta["mag_field_of_study"]
        assert row["citationcount"] == len(meta["inbound_citations"])
        assert row["year"] == meta["year"] and row["externalids"]["CorpusId"] == pid
        assert row["venue"] == (meta["venue"] or "")
        assert (row["journal"] or {}).get("name") == meta["journal"]
        assert row["externalids"]["ArXiv"] == (meta["arxiv_id"] or None)
        assert row["externalids"]["DOI"] == (meta["doi"] or None)
        names = [a["name"] for a in row["authors"]]
        assert all(map(str.endswith, names, [a["suffix"] or a["last"] for a in meta["authors"]])), names
        if int(pid) not in release.faults["title_with_newline"]:
            assert row["title"] == meta["title"]
        if meta["abstract"] is None:
            assert int(pid) not in abstracts
        else:
            assert abstracts[int(pid)]["abstract"] == meta["abstract"]
