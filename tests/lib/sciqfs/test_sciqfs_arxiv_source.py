"""unarXive papers as SciQFS input: mentions at the marker in the citing sentence, references linked to catalogue
works or arXiv papers, queries from in-dump abstracts or arXiv's metadata snapshot (the catalogue has none)."""

import json

import pytest
from builders import with_lone_surrogate

from citeworth_assets.lib import lake
from citeworth_assets.lib.arxiv import unarxive2022
from citeworth_assets.lib.arxiv.dump_files import discover_dump_files
from citeworth_assets.lib.arxiv.resolution import (
    Catalogue,
    resolution_schema,
    resolve_all,
)
from citeworth_assets.lib.arxiv.schemas import (
    paper_schema,
    paragraph_schema,
    reference_schema,
)
from citeworth_assets.lib.mag.catalogue import openalex_works
from citeworth_assets.lib.mag.schemas import work_schema
from citeworth_assets.lib.read_issues import IssueLog
from citeworth_assets.lib.sciqfs.arxiv_source import (
    DIMENSION,
    CitedWorks,
    cited_works_for,
    dump_file_papers,
    dump_papers,
    papers_from_unarxive_2022,
    read_metadata_abstracts,
    readable_text,
)
from citeworth_assets.lib.sciqfs.dataset import SciqfsSettings, build_dataset
from citeworth_assets.lib.sciqfs.examples import default_splitter
from citeworth_assets.samples.arxiv import write_unarxive_2022
from citeworth_assets.samples.mag import sample_works, write_openalex_snapshot

REAL = "unarxive-2022/arXiv_src_2212_086.first20.jsonl"
FAST = SciqfsSettings(augment=False)


def write_jsonl(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_markers_read_as_tokens_and_citations_point_at_theirs():
    text, citations = readable_text("See {{cite:ab12}}{{cite:cd34}} and\n\n{{formula:0f-1}}, as in {{cite:ef56}}.")
    assert text == "See CIT CIT and FORMULA , as in CIT ."
    assert [(text[s:e], ref) for s, e, ref in citations] == [("CIT", "ab12"), ("CIT", "cd34"), ("CIT", "ef56")]


def assert_mentions_at_markers(papers):
    mentions = [m for p in papers for m in p.mentions]
    assert mentions
    for mention in mentions:
        assert mention.context[mention.start_offset : mention.end_offset] == "CIT"
        assert "{{" not in mention.context  # every marker reads as a token
        assert "\n\n" not in mention.context  # one sentence of one paragraph, not the paragraph


@pytest.fixture(scope="module")
def real_papers(shared_data):
    path = shared_data / REAL
    log = IssueLog()
    papers = list(papers_from_unarxive_2022(path, default_splitter(), log, CitedWorks(dump_papers=dump_papers(path))))
    return path, papers, log


def test_real_papers_are_adapted_with_mentions_in_their_citing_sentences(real_papers):
    _, papers, log = real_papers
    assert len(papers) == 20 and all(p.abstract and p.title for p in papers)
    assert_mentions_at_markers(papers)
    assert sum(len(p.mentions) for p in papers) == 842
    assert dict(log.counts) == {"no_citation_markers": 3}
    # the first mention of the first paper: "Pemantle and Rivin {{cite:...}} conjectured that ... {{formula:...}} ."
    first = papers[0].mentions[0]
    assert first.context.startswith("Pemantle and Rivin CIT conjectured") and first.context.endswith(".")
    linked = [r for p in papers for r in p.references if r.linked_paper_id]
    # 96 mentioned entries carry an arXiv id; none is a paper of these 20 (all Dec 2022), so no abstract yet
    assert len(linked) == 96 and all(r.linked_paper_id.startswith("arxiv:") for r in linked)
    assert not any(r.abstract for p in papers for r in p.references)


@pytest.mark.slow  # a few seconds: make test runs it, make test-fast leaves it out
def test_real_references_get_queries_from_the_metadata_snapshot(real_papers, tmp_path):
    path, papers, _ = real_papers
    cited = sorted(
        {r.linked_paper_id.removeprefix("arxiv:") for p in papers for r in p.references if r.linked_paper_id}
    )
    snapshot = write_jsonl(
        tmp_path / "arxiv-metadata.jsonl",
        [
            {
                "id": arxiv_id,
                "title": f"Work {arxiv_id}",
                "abstract": f"We study random polynomials and roots {arxiv_id}.",
            }
            for arxiv_id in cited[:5]
        ],
    )
    metadata = {i: (t, a) for i, t, a in read_metadata_abstracts(snapshot, IssueLog())}
    log = IssueLog()
    again = papers_from_unarxive_2022(
        path, default_splitter(), log, CitedWorks(dump_papers=dump_papers(path), metadata=metadata)
    )
    report = build_dataset(again, tmp_path / "out", default_splitter(), log, FAST)
    with_query = sum(
        1 for p in papers for r in p.references if r.linked_paper_id and r.linked_paper_id[6:] in cited[:5]
    )
    assert report["papers"] == 20 and report["citations"] == 842
    assert report["examples"] == with_query > 0  # one example per (citing paper, reference with an abstract)
    assert report["unmatched_citing_sentences"] == 0


def test_a_cited_paper_of_the_dump_gives_its_abstract_whichever_comes_first(tmp_path):
    body = "Earlier work {{cite:h1}} solved sparse graphs. We extend it to dense graphs."
    citing = {
        "paper_id": "2301.00001",
        "metadata": {"title": "Dense graphs"},
        "abstract": {"text": "Dense."},
        "body_text": [{"section": "Intro", "text": body, "cite_spans": [{}]}],
        "bib_entries": {
            "h1": {
                "bib_entry_raw": "A. Author, Sparse graphs, arXiv:2301.00002",
                "contained_arXiv_ids": [{"id": "2301.00002"}],
                "ids": {},
            }
        },
    }
    cited = {
        "paper_id": "2301.00002",
        "metadata": {"title": "Sparse  graphs", "abstract": "We solve sparse graphs."},
        "abstract": {"text": "  "},
        "body_text": [],
        "bib_entries": {},
    }
    path = write_jsonl(tmp_path / "dump.jsonl", [citing, cited])
    log = IssueLog()
    papers = list(papers_from_unarxive_2022(path, default_splitter(), log, CitedWorks(dump_papers=dump_papers(path))))
    reference = papers[0].references[0]
    assert (reference.linked_paper_id, reference.title, reference.abstract) == (
        "arxiv:2301.00002",
        "Sparse graphs",
        "We solve sparse graphs.",
    )
    assert papers[0].mentions[0].context == "Earlier work CIT solved sparse graphs."
    report = build_dataset(papers, tmp_path / "out", default_splitter(), log, FAST)
    assert report["examples"] == 1


def test_generated_dump_resolved_against_the_catalogue(tmp_path):
    works = sample_works(13, 120)
    jsonl, _ = write_unarxive_2022(tmp_path / "u2022.jsonl.gz", works, papers=8)
    catalogue_rows = list(openalex_works(write_openalex_snapshot(tmp_path / "openalex", works), IssueLog()))
    catalogue = Catalogue.from_works(catalogue_rows)
    metadata = {w.arxiv_id: (w.title, f"{w.title}. An abstract about it.") for w in works if w.arxiv_id}
    cited = CitedWorks({w["work_id"]: w for w in catalogue_rows}, dump_papers(jsonl), metadata)
    log = IssueLog()
    papers = list(papers_from_unarxive_2022(jsonl, default_splitter(), log, cited, catalogue))
    assert len(papers) == 8
    assert_mentions_at_markers(papers)
    references = [r for p in papers for r in p.references]
    by_work = [r for r in references if r.linked_paper_id and not r.linked_paper_id.startswith("arxiv:")]
    titles = {w["work_id"]: w["title"] for w in catalogue_rows}
    assert by_work and all(r.title == titles[r.linked_paper_id] for r in by_work)  # titles from the catalogue
    with_abstract = [r for r in references if r.abstract]
    assert with_abstract and all(r.abstract.endswith("An abstract about it.") for r in with_abstract)
    report = build_dataset(papers, tmp_path / "out", default_splitter(), log, FAST)
    pairs = {(p.paper_id, r.internal_id) for p in papers for r in p.references if r.abstract}
    assert report["examples"] + sum(report["skipped_pairs"].values()) >= len(pairs) > 0
    assert report["examples"] > 0 and report["unmatched_citing_sentences"] == 0


def test_the_lake_tables_give_the_same_papers_as_the_dump_file(tmp_path):
    works = sample_works(13, 120)
    dumps, root = tmp_path / "dumps", tmp_path / "lake"
    jsonl, _ = write_unarxive_2022(dumps / "unarxive-2022" / "u2022.jsonl.gz", works, papers=6)
    write_jsonl(
        (dumps / "arxiv-metadata").mkdir(parents=True) or dumps / "arxiv-metadata" / "meta.jsonl",
        [
            {"id": w.arxiv_id, "title": w.title, "abstract": f"{w.title}. An abstract about it."}
            for w in works
            if w.arxiv_id
        ],
    )
    catalogue_rows = list(openalex_works(write_openalex_snapshot(tmp_path / "openalex", works), IssueLog()))
    catalogue = Catalogue.from_works(catalogue_rows)
    # the arXiv ingest and resolution as the arxiv domain writes them, one dump-file partition
    key = discover_dump_files(dumps)[0].key
    papers = list(unarxive2022.iter_papers(jsonl, IssueLog()))
    references = [r for p in papers for r in p.references]
    for table, schema, rows in [
        ("arxiv_papers", paper_schema(), [p.row for p in papers]),
        ("arxiv_paragraphs", paragraph_schema(), [r for p in papers for r in p.paragraphs]),
        ("arxiv_references", reference_schema(), references),
        ("arxiv_resolutions", resolution_schema(), list(resolve_all(references, catalogue))),
    ]:
        lake.write_partition(root, table, schema, rows, key, DIMENSION)
    lake.write_partition(root, "works", work_schema(), catalogue_rows)
    log = IssueLog()
    before = cited_works_for(root, dumps, key, IssueLog())
    from_file_cited = CitedWorks(before.works, dump_papers(jsonl), before.metadata)  # the file's own abstracts
    from_file = list(papers_from_unarxive_2022(jsonl, default_splitter(), IssueLog(), from_file_cited, catalogue))
    jsonl.rename(tmp_path / "moved.jsonl")  # abstracts now come from the lake alone, not from re-reading the dump
    cited = cited_works_for(root, dumps, key, log)
    assert set(cited.works) < {w["work_id"] for w in catalogue_rows}  # only the cited works are kept
    from_lake = list(dump_file_papers(root, key, default_splitter(), cited, log))
    assert all(p.abstract for p in from_lake)
    assert len(from_lake) == 6 and any(r.abstract for p in from_lake for r in p.references)
    for lake_paper, file_paper in zip(from_lake, from_file, strict=True):
        assert (lake_paper.paper_id, lake_paper.title, lake_paper.abstract) == (
            file_paper.paper_id,
            file_paper.title,
            file_paper.abstract,
        )
        assert lake_paper.sections == file_paper.sections and lake_paper.mentions == file_paper.mentions
        assert lake_paper.references == file_paper.references


def test_a_lake_paper_cited_by_another_gives_its_abstract_from_the_lake(tmp_path):
    """No dump file and no metadata snapshot: the cited paper's abstract is its arxiv_papers row's."""

    def record(paper_id, text, bib, abstract):
        return {
            "paper_id": paper_id,
            "metadata": {"title": f"Paper {paper_id}", "abstract": "metadata version"},
            "abstract": {"section": "Abstract", "text": abstract},
            "bib_entries": bib,
            "body_text": [{"section": "Intro", "text": text, "cite_spans": [{"ref_id": h} for h in bib]}],
        }

    citing = record(
        "2212.00001",
        "Query-focused summarization ranks sentences {{cite:aa11}}. It works well.",
        {
            "aa11": {
                "bib_entry_raw": "B. Author. Paper 2212.00002. arXiv:2212.00002",
                "contained_arXiv_ids": [{"id": "2212.00002"}],
            }
        },
        "  The citing\npaper's abstract. ",
    )
    cited = record(
        "2212.00002",
        "A body {{cite:bb22}}.",
        {"bb22": {"bib_entry_raw": "C. Other. Something."}},
        "Sentence ranking with\n  queries.",
    )
    root, log = tmp_path / "lake", IssueLog()
    papers = [
        unarxive2022.paper_from_record(r, tmp_path / "x.jsonl", n, 0, log) for n, r in enumerate([citing, cited], 1)
    ]
    assert [p.row["abstract"] for p in papers] == ["The citing paper's abstract.", "Sentence ranking with queries."]
    for table, schema, rows in [
        ("arxiv_papers", paper_schema(), [p.row for p in papers]),
        ("arxiv_paragraphs", paragraph_schema(), [r for p in papers for r in p.paragraphs]),
        ("arxiv_references", reference_schema(), [r for p in papers for r in p.references]),
    ]:
        lake.write_partition(root, table, schema, rows, "unarxive-2022__x", DIMENSION)
    works = cited_works_for(root, tmp_path / "no-dumps", "unarxive-2022__x", log)
    assert works.dump_papers == {"2212.00002": ("Paper 2212.00002", "Sentence ranking with queries.")}
    by_id = {p.paper_id: p for p in dump_file_papers(root, "unarxive-2022__x", default_splitter(), works, log)}
    assert by_id["2212.00001"].abstract == "The citing paper's abstract."
    [reference] = by_id["2212.00001"].references
    assert (reference.linked_paper_id, reference.title, reference.abstract) == (
        "arxiv:2212.00002",
        "Paper 2212.00002",
        "Sentence ranking with queries.",
    )


def test_a_paper_of_two_dump_files_is_given_by_the_first(tmp_path):
    """Each dump file is its own partition; a paper an earlier file (by key) already gives is left out and counted."""
    log = IssueLog()
    record = {
        "paper_id": "2212.00001",
        "metadata": {"title": "Paper", "abstract": "An abstract."},
        "bib_entries": {"aa11": {"bib_entry_raw": "B. Author. arXiv:2212.00002"}},
        "body_text": [{"section": "Intro", "text": "It ranks {{cite:aa11}}.", "cite_spans": [{"ref_id": "aa11"}]}],
    }
    root = tmp_path / "lake"
    for key in ("u2022_a", "u2022_b"):
        paper = unarxive2022.paper_from_record(record, tmp_path / f"{key}.jsonl", 1, 0, log)
        for table, schema, rows in [
            ("arxiv_papers", paper_schema(), [paper.row]),
            ("arxiv_paragraphs", paragraph_schema(), paper.paragraphs),
            ("arxiv_references", reference_schema(), paper.references),
        ]:
            lake.write_partition(root, table, schema, rows, key, DIMENSION)
    first = list(dump_file_papers(root, "u2022_a", default_splitter(), CitedWorks(), log))
    assert [p.paper_id for p in first] == ["2212.00001"] and "duplicate_paper" not in log.counts
    assert list(dump_file_papers(root, "u2022_b", default_splitter(), CitedWorks(), log)) == []
    assert log.counts["duplicate_paper"] == 1


def test_a_lone_surrogate_keeps_its_paper_in_rouge_sciqfs(shared_data, tmp_path):
    """A mathematical letter cut between its surrogate halves (``\\ud835``) makes the line invalid strict JSON: the
    paper is read with U+FFFD there and the line is reported, as the unarXive reader does."""
    record = json.loads((shared_data / REAL).read_bytes().splitlines()[4])
    path = with_lone_surrogate(shared_data / REAL, 4, tmp_path / "lone.jsonl")
    log = IssueLog()
    cited = CitedWorks(dump_papers=dump_papers(path))
    papers = list(papers_from_unarxive_2022(path, default_splitter(), log, cited))
    assert len(cited.dump_papers) == 20 and record["paper_id"] in {paper.paper_id for paper in papers}
    assert [(issue.kind, issue.line) for issue in log.issues if issue.kind == "invalid_utf8"] == [("invalid_utf8", 5)]
