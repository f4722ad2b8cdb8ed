"""Citing papers read back from the lake: first parse wins across shards, references titled from the catalogue."""

from citeworth_assets.lib import lake
from citeworth_assets.lib.citesum.tables import CITED_ABSTRACT_SCHEMA, CITED_ABSTRACTS
from citeworth_assets.lib.jsonl import IssueLog
from citeworth_assets.lib.s2orc.records import PAPER_SCHEMA, PARAGRAPH_SCHEMA
from citeworth_assets.lib.sciqfs.examples import build_examples, default_splitter
from citeworth_assets.lib.sciqfs.lake_tables import cited_papers, papers_from_lake
from citeworth_assets.lib.sciqfs.tables import build_tables

TEXT = "Graph networks pass messages between nodes [1]. We use a lake of tables. Sparse attention helps (Lee, 2020)."


def span(text, marker, ref_id, linked):
    start = text.index(marker)
    return {"start": start, "end": start + len(marker), "text": marker, "ref_id": ref_id, "linked_paper_id": linked}


def paragraph(paper_id, shard, line, text, spans):
    return {
        "paper_id": paper_id,
        "paragraph_index": 0,
        "section": "Intro",
        "text": text,
        "cite_spans": spans,
        "ref_spans": [],
        "invalid_span_count": 0,
        "release": "r",
        "shard": shard,
        "source_file": "f",
        "line": line,
        "byte_offset": 0,
    }


def test_papers_from_the_lake(tmp_path):
    root = tmp_path / "lake"
    spans = [span(TEXT, "[1]", "BIBREF0", "c1"), span(TEXT, "(Lee, 2020)", "BIBREF1", None)]
    lake.write_partition(root, "s2orc_paragraphs", PARAGRAPH_SCHEMA, [paragraph("p1", "r_0", 1, TEXT, spans)], "r_0")
    # the same paper again in a later shard, with other text: the first parse is kept, the repeat counted
    lake.write_partition(
        root, "s2orc_paragraphs", PARAGRAPH_SCHEMA, [paragraph("p1", "r_1", 1, "Other text [1].", [])], "r_1"
    )
    lake.write_partition(
        root,
        "s2orc_papers",
        PAPER_SCHEMA,
        [{"paper_id": "p1", "title": "Citing", "abstract": "A.", "release": "r", "shard": "r_0", "line": 1}],
        "r_0",
    )
    lake.write_partition(
        root,
        CITED_ABSTRACTS,
        CITED_ABSTRACT_SCHEMA,
        [{"paper_id": "c1", "title": "Message Passing", "abstract": "Graph networks pass messages between nodes."}],
    )
    split, log = default_splitter(), IssueLog()
    papers = list(papers_from_lake(root, split, cited_papers(root)))
    assert [p.paper_id for p in papers] == ["p1", "p1"]
    first = papers[0]
    assert (first.title, first.abstract) == ("Citing", "A.")
    references = {r.internal_id: r for r in first.references}
    assert references["BIBREF0"].title == "Message Passing" and references["BIBREF0"].abstract.startswith("Graph")
    assert references["BIBREF1"].title is None and references["BIBREF1"].abstract is None
    assert [m.context for m in first.mentions] == [
        "Graph networks pass messages between nodes [1].",
        "Sparse attention helps (Lee, 2020).",
    ]
    tables = build_tables(papers, log)
    assert log.counts == {"duplicate_paper": 1} and tables.papers.column("text").to_pylist() == [TEXT]
    (example,) = build_examples(tables, split)
    assert example.citation_labels == [True, False, False]  # the unlinked reference has no query: no example
