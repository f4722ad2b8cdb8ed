"""Citing papers of one shard read back from the lake: the first parse wins across shards, references titled from
the catalogue, and only what the shard needs is read."""

import pytest

from citeworth_assets.lib import lake
from citeworth_assets.lib.citesum.tables import CITED_ABSTRACTS, cited_abstract_schema
from citeworth_assets.lib.duplicates import write_duplicate_papers
from citeworth_assets.lib.read_issues import IssueLog
from citeworth_assets.lib.s2orc.records import paper_schema, paragraph_schema
from citeworth_assets.lib.s2orc.schema import DUPLICATES
from citeworth_assets.lib.sciqfs.examples import ExampleCounts, build_examples, default_splitter
from citeworth_assets.lib.sciqfs.s2orc_lake import shard_papers
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


def metadata(paper_id, shard, line, title):
    return {"paper_id": paper_id, "title": title, "abstract": "A.", "release": "r", "shard": shard, "line": line}


def test_papers_of_a_shard(tmp_path):
    root = tmp_path / "lake"
    spans = [span(TEXT, "[1]", "BIBREF0", "c1"), span(TEXT, "(Lee, 2020)", "BIBREF1", None)]
    lake.write_partition(root, "s2orc_paragraphs", paragraph_schema(), [paragraph("p1", "r_0", 1, TEXT, spans)], "r_0")
    # the same paper again in a later shard, with other text: the first parse is kept, the repeat counted there
    later = [paragraph("p1", "r_1", 1, "Other text [1].", []), paragraph("p2", "r_1", 2, "Own text.", [])]
    lake.write_partition(root, "s2orc_paragraphs", paragraph_schema(), later, "r_1")
    lake.write_partition(root, "s2orc_papers", paper_schema(), [metadata("p1", "r_0", 1, "Citing")], "r_0")
    lake.write_partition(
        root,
        "s2orc_papers",
        paper_schema(),
        [metadata("p1", "r_1", 1, "Later"), metadata("p2", "r_1", 2, "Two")],
        "r_1",
    )
    write_duplicate_papers(root, DUPLICATES)
    catalogue = [
        {"paper_id": "c1", "title": "Message Passing", "abstract": "Graph networks pass messages between nodes."},
        {"paper_id": "c9", "title": "Not cited here", "abstract": "Elsewhere."},
    ]
    lake.write_partition(root, CITED_ABSTRACTS, cited_abstract_schema(), catalogue)
    split, log = default_splitter(), IssueLog()
    (first,) = shard_papers(root, "r_0", split, log)
    assert (first.paper_id, first.title, first.abstract) == ("p1", "Citing", "A.")
    references = {r.internal_id: r for r in first.references}
    assert references["BIBREF0"].title == "Message Passing" and references["BIBREF0"].abstract.startswith("Graph")
    assert references["BIBREF1"].title is None and references["BIBREF1"].abstract is None
    assert [m.context for m in first.mentions] == [
        "Graph networks pass messages between nodes [1].",
        "Sparse attention helps (Lee, 2020).",
    ]
    assert not log.counts
    later_papers = list(shard_papers(root, "r_1", split, log))
    assert [p.paper_id for p in later_papers] == ["p2"] and log.counts == {"duplicate_paper": 1}
    tables = build_tables([first], IssueLog())
    assert tables.papers.column("text").to_pylist() == [TEXT]
    (example,) = build_examples(tables, split)
    assert example.citation_labels == [True, False, False]  # the unlinked reference has no query: no example


def test_a_first_occurrence_without_paragraphs_leaves_the_later_parse_with_the_first_metadata(tmp_path):
    """p1's first metadata row is in shard r_0, where it has no parse: r_1's parse is kept, titled from r_0."""
    root = tmp_path / "lake"
    lake.write_partition(root, "s2orc_paragraphs", paragraph_schema(), [], "r_0")
    lake.write_partition(root, "s2orc_paragraphs", paragraph_schema(), [paragraph("p1", "r_1", 4, TEXT, [])], "r_1")
    lake.write_partition(root, "s2orc_papers", paper_schema(), [metadata("p1", "r_0", 1, "First row")], "r_0")
    lake.write_partition(root, "s2orc_papers", paper_schema(), [metadata("p1", "r_1", 4, "Second row")], "r_1")
    write_duplicate_papers(root, DUPLICATES)
    log = IssueLog()
    (paper,) = shard_papers(root, "r_1", default_splitter(), log)
    assert paper.title == "First row" and not log.counts


def test_the_folder_of_an_unpartitioned_build_is_dropped_and_the_partitions_kept(tmp_path):
    from citeworth_assets.lib.sciqfs import lake_tables

    root = tmp_path / "lake"
    for key in (None, "r_0"):
        lake.write_partition(root, "sciqfs_papers", lake_tables.papers_schema(), [{"paper_id": f"p{key}"}], key)
    assert lake_tables.drop_unpartitioned(root, ["sciqfs_papers", "sciqfs_examples"]) == ["sciqfs_papers"]
    assert lake_tables.citing_paper_ids(root) == ["pr_0"]


def ingest_generated_dump(tmp_path, shards: int):
    """A generated S2ORC dump written to a lake as the S2ORC and CiteSum assets write it; the lake and shard keys."""
    from citeworth_assets.lib.citesum.tables import write_cited_abstract_catalogue
    from citeworth_assets.lib.s2orc.candidate_filter import split_candidates
    from citeworth_assets.lib.s2orc.records import ShardSource, read_metadata, read_paragraphs
    from citeworth_assets.lib.s2orc.shards import discover_shards
    from citeworth_assets.samples.s2orc import generate_sample_dump

    generate_sample_dump(tmp_path / "dumps", papers=40, shards=shards, seed=5)
    root, keys = tmp_path / "lake", []
    for shard in discover_shards(tmp_path / "dumps"):
        rows = read_metadata(ShardSource(shard.release, shard.key, shard.metadata), IssueLog())
        lake.write_partition(root, "s2orc_papers", paper_schema(), rows, shard.key)
        candidates = split_candidates(lake.read_partition(root, "s2orc_papers", shard.key))[0]
        source = ShardSource(shard.release, shard.key, shard.pdf_parses)
        paragraphs = read_paragraphs(source, IssueLog(), set(candidates.column("paper_id").to_pylist()))
        lake.write_partition(root, "s2orc_paragraphs", paragraph_schema(), paragraphs, shard.key)
        keys.append(shard.key)
    write_cited_abstract_catalogue(root)
    write_duplicate_papers(root, DUPLICATES)
    return root, keys


@pytest.mark.slow  # a few seconds: make test runs it, make test-fast leaves it out
def test_partitions_give_the_examples_of_the_whole_collection(tmp_path):
    """ROUGE-SciQFS per shard (the graph) and over every shard at once (one partition, as the command builds) give
    the same examples: a partition reads all its examples need, whatever the other shards hold."""
    from citeworth_assets.lib.sciqfs import dataset, lake_tables

    root, keys = ingest_generated_dump(tmp_path, shards=2)
    split, settings, dimension = default_splitter(), dataset.SciqfsSettings(), lake_tables.S2ORC_DIMENSION

    def rows(examples):
        return sorted(
            (e.paper_id, e.reference_id, e.query, tuple(e.sentences), tuple(e.label_sources)) for e in examples
        )

    per_partition, cited = [], []
    for key in keys:
        lake_tables.write_tables(root, shard_papers(root, key, split, IssueLog()), IssueLog(), key, dimension)
        tables = lake_tables.read_tables(root, key, dimension)
        cited.append(set(tables.references.column("title").to_pylist()))
        per_partition += dataset.partition_examples(tables, split, settings, ExampleCounts())
    whole_papers = [paper for key in keys for paper in shard_papers(root, key, split, IssueLog())]
    whole = dataset.partition_examples(build_tables(whole_papers, IssueLog()), split, settings, ExampleCounts())
    assert cited[0] & cited[1] - {None}  # some references are cited from both shards
    assert per_partition and rows(per_partition) == rows(whole)
