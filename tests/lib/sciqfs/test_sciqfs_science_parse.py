"""The Science-Parse JSON adapter on hand-written files (fields of ROUGE-SciQFS Figure 3)."""

from pathlib import Path

from citeworth_assets.lib.read_issues import IssueLog
from citeworth_assets.lib.sciqfs.examples import (
    ExampleCounts,
    build_examples,
    default_splitter,
)
from citeworth_assets.lib.sciqfs.science_parse import read_science_parse_folder
from citeworth_assets.lib.sciqfs.tables import build_tables, normalise_title

FILES = Path(__file__).resolve().parent / "science_parse"
CATALOGUE = {
    normalise_title("Ranking Sentences by Query Overlap"): "We rank sentences by their word overlap with a query.",
    normalise_title("Graph Neural Networks"): "Graph neural networks learn representations of graph nodes.",
}


def _read(folder=FILES):
    log = IssueLog()
    return list(read_science_parse_folder(folder, log)), log


def test_both_shapes_are_read_with_ids_text_and_mentions():
    papers, log = _read()
    by_id = {p.paper_id: p for p in papers}
    assert set(by_id) == {"sp-qfs-survey", "sp-citation-contexts", "graph_notes"}
    survey = by_id["sp-qfs-survey"]
    assert survey.title == "A Survey of Query-Focused Summarization"
    assert survey.abstract == "We survey query-focused summarization systems."
    assert len(survey.sections) == 2 and "Method" not in " ".join(survey.sections)  # headings are not text
    assert [(m.internal_id, m.context[m.start_offset : m.end_offset]) for m in survey.mentions] == [
        ("0", "[1]"),
        ("1", "[2]"),
        ("0", "[1]"),
    ]
    assert by_id["sp-citation-contexts"].abstract is None
    assert log.counts == {"bad_section": 1}


def test_tables_merge_duplicate_references_and_count_damage():
    papers, log = _read()
    tables = build_tables(papers, log, catalogue_abstracts=CATALOGUE)
    references = {normalise_title(r["title"]): r for r in tables.references.to_pylist()}
    assert len(references) == 4
    # "Ranking Sentences by Query Overlap" (paper A) and "ranking sentences by query overlap." (paper B) are one
    # reference; no record has an abstract, so the first one read (paper B's file sorts first) gives the title.
    overlap = references["ranking sentences by query overlap"]
    assert overlap["title"] == "ranking sentences by query overlap."
    assert overlap["total_citations"] == 3 and overlap["abstract"] == CATALOGUE["ranking sentences by query overlap"]
    assert references["the acl anthology reference corpus"]["abstract"] is None
    assert log.counts == {"bad_section": 1, "unknown_reference": 1, "offset_out_of_range": 1}
    assert {i.file.rsplit("/", 1)[-1] for i in log.issues} == {"graph_notes.json"}
    texts = dict(zip(tables.papers.column("paper_id").to_pylist(), tables.papers.column("text").to_pylist()))
    assert texts["graph_notes"].startswith("Graph neural networks")


def test_examples_from_science_parse_label_the_citing_sentences():
    split = default_splitter()
    papers, log = _read()
    counts = ExampleCounts()
    examples = {
        (e.paper_id, e.reference_id): e
        for e in build_examples(build_tables(papers, log, CATALOGUE), split, counts=counts)
    }
    assert counts.examples == 3 and counts.unmatched_citing_sentences == 0
    assert counts.skipped["reference_without_abstract"] == 2  # the encoder paper and the ACL corpus
    positives = {key[0]: [s for s, label in zip(e.sentences, e.labels) if label] for key, e in examples.items()}
    assert positives["sp-qfs-survey"] == [
        "Early systems ranked sentences by word overlap with the query [1].",
        "Sentence ranking by cosine similarity to the query remains a strong baseline [1].",
    ]
    assert positives["sp-citation-contexts"] == ["Overlap ranking (Smith, 2005) is simple and strong."]
    assert positives["graph_notes"] == [
        "Graph neural networks learn node representations [1].",
        "They scale to large graphs [1].",
    ]


def test_a_broken_file_is_counted_and_the_others_kept(tmp_path):
    for path in FILES.glob("*.json"):
        (tmp_path / path.name).write_bytes(path.read_bytes())
    (tmp_path / "truncated.json").write_text('{"title": "Cut', encoding="utf-8")
    (tmp_path / "list.json").write_text("[1, 2]", encoding="utf-8")
    papers, log = _read(tmp_path)
    assert len(papers) == 3
    assert log.counts["bad_json"] == 2
    assert {i.file.rsplit("/", 1)[-1] for i in log.issues if i.kind == "bad_json"} == {"truncated.json", "list.json"}


def test_a_science_parse_folder_becomes_a_released_dataset(tmp_path):
    """The library path behind `citeworth sciqfs --science-parse DIR --out DIR`."""
    import json

    import pyarrow.parquet as pq

    from citeworth_assets.lib.sciqfs.dataset import build_dataset

    log = IssueLog()
    report = build_dataset(
        read_science_parse_folder(FILES, log), tmp_path, default_splitter(), log, catalogue_abstracts=CATALOGUE
    )
    assert report["examples"] == sum(report["rows_per_split"].values()) == 3
    assert report["skipped_pairs"] == {"reference_without_abstract": 2}
    assert report["problems"] == {"bad_section": 1, "unknown_reference": 1, "offset_out_of_range": 1}
    assert json.loads((tmp_path / "build.json").read_text()) == report
    stats = {row["split"]: row for row in pq.read_table(tmp_path / "statistics.parquet").to_pylist()}
    assert stats["all"]["examples"] == 3 and stats["all"]["positives_before"] == 5
    released = [
        row for split in report["rows_per_split"] for row in pq.read_table(tmp_path / f"{split}.parquet").to_pylist()
    ]
    assert sorted(r["paper_id"] for r in released) == ["graph_notes", "sp-citation-contexts", "sp-qfs-survey"]
    assert pq.read_table(tmp_path / "citations.parquet").num_rows == 7
