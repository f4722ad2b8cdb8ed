"""The real unarXive 2020 and 2022 samples through the graph: every paper ingested, the 2020 export byte-identical to
unarXive's published extraction, and the resolver compared with the links the samples ship (printed)."""

import hashlib

import pytest
from arxiv_graph_helpers import latest_metadata, query

pytestmark = pytest.mark.slow

# sha256 of the published extraction for the 2020 sample with its script's default window (one sentence before and
# after, NLTK's trained English Punkt as nltk 3.4.5); the same figure tests/lib/arxiv/test_contexts.py checks.
PUBLISHED_2020_SHA256 = "fd05b5ea61994698aaf0f84e191b30553572abad2ee8883c89200a36ee720eb3"
SAMPLE_2022 = "arXiv_src_2212_086.first20.jsonl"


@pytest.fixture(scope="module")
def built(shared_data, tmp_path_factory, build_graph):
    root = tmp_path_factory.mktemp("arxiv_real")
    (root / "dumps" / "unarxive-2020").mkdir(parents=True)
    (root / "dumps" / "unarxive-2022").mkdir(parents=True)
    (root / "dumps" / "unarxive-2020" / "papers").symlink_to(shared_data / "unarxive-2020" / "papers")
    (root / "dumps" / "unarxive-2022" / SAMPLE_2022).symlink_to(shared_data / "unarxive-2022" / SAMPLE_2022)
    settings, result, instance, _ = build_graph(root / "dumps", root / "data")
    yield settings, result.failed, instance, shared_data


def test_every_real_paper_is_ingested(built):
    settings, failed, instance, shared_data = built
    assert failed == []
    texts = {p.stem for p in (shared_data / "unarxive-2020" / "papers").glob("*.txt")}
    papers = query(
        settings,
        "SELECT release, count(*), count(DISTINCT paper_id), sum(n_markers) FROM arxiv.papers GROUP BY 1 ORDER BY 1",
    )
    paragraphs = dict(query(settings, "SELECT release, count(*) FROM arxiv.paragraphs GROUP BY 1"))
    references = dict(query(settings, "SELECT release, count(*) FROM arxiv.references GROUP BY 1"))
    contexts = dict(query(settings, "SELECT citing_paper_id LIKE '2212.%', count(*) FROM arxiv.contexts GROUP BY 1"))
    print(f"\nreal samples: papers {papers}, paragraphs {paragraphs}, references {references}, contexts {contexts}")
    assert papers[0][:3] == ("unarxive-2020", len(texts), len(texts)) and len(texts) == 100
    assert papers[1][:3] == ("unarxive-2022", 20, 20)
    # refs.db lists 4027 items of 605 papers; the folder's 100 papers own 3520 (a partition reads its papers' items)
    assert references == {"unarxive-2020": 3520, "unarxive-2022": references["unarxive-2022"]}
    assert query(settings, "SELECT count(*) FROM arxiv.read_issues WHERE release = 'unarxive-2020'") == [(0,)]
    issues = latest_metadata(instance, "arxiv_papers", "unarxive_2022_arxiv_src_2212_086_first20")[
        "read_issues_by_kind"
    ]
    print("unarXive 2022 sample read issues:", issues)
    assert issues == {"no_citation_markers": 3}  # three real papers cite nothing in their body text: explained


def test_real_2022_disciplines_become_mag_field_partitions(built):
    settings, *_ = built
    fields = query(
        settings, "SELECT field_key, papers, from_discipline FROM arxiv.papers_per_field ORDER BY 1 NULLS LAST"
    )
    print("\nreal samples, arXiv papers per field:", fields)
    # arXiv's Quantitative Biology is MAG's Biology; the 2020 sample has no discipline and no catalogue here
    assert fields == [
        ("biology", 1, 1),
        ("computer_science", 3, 3),
        ("mathematics", 6, 6),
        ("physics", 10, 10),
        (None, 100, 0),
    ]


def test_the_2020_contexts_export_equals_the_published_extraction(built):
    settings, *_ = built
    (count,) = query(settings, "SELECT count(*) FROM arxiv.contexts WHERE citing_paper_id NOT LIKE '2212.%'")[0]
    lines = (settings.export_dir("arxiv") / "contexts.csv").read_bytes().split(b"\n")
    # the 2020 partition's key sorts first, so its contexts open the export
    assert hashlib.sha256(b"".join(line + b"\n" for line in lines[:count])).hexdigest() == PUBLISHED_2020_SHA256


def test_resolver_against_the_shipped_links_is_reported(built):
    settings, *_ = built
    agreement = query(settings, "SELECT * FROM arxiv.link_agreement ORDER BY release")
    report = query(settings, "SELECT * FROM arxiv.resolution_report WHERE release = 'all'")
    print("\nresolver vs shipped links (release, same, different, shipped_only, ours_only, neither, agreement):")
    for row in agreement:
        print("  ", row)
    print("resolution routes/failures over all:", report)
    shipped = dict(
        query(
            settings,
            "SELECT release, count(*) FILTER (WHERE linked_mag_id IS NOT NULL OR linked_openalex_id IS NOT NULL) "
            "FROM arxiv.references GROUP BY 1",
        )
    )
    by_release = {row[0]: row for row in agreement}
    for release, links in shipped.items():
        same, different, shipped_only = by_release[release][1:4]
        assert same + different + shipped_only == links > 0  # every shipped link is compared


def test_the_export_as_the_citation_recommendation_reader_sees_it(built):
    from citeworth_assets.lib.citrec.contexts import read_catalogue, read_contexts
    from citeworth_assets.lib.read_issues import IssueLog

    settings, *_ = built
    issues = IssueLog()
    contexts = list(read_contexts(settings.export_dir("arxiv") / "contexts.csv", issues))
    catalogue = read_catalogue(settings.export_dir("arxiv") / "catalogue.jsonl", issues)
    by_release = dict(query(settings, "SELECT citing_paper_id LIKE '2212.%', count(*) FROM arxiv.contexts GROUP BY 1"))
    usable_2022 = sum(1 for c in contexts if (c.citing_arxiv or "").startswith("2212."))
    print(
        f"\nexport: {len(contexts)} usable contexts ({usable_2022} of {by_release[True]} from 2022, by their shipped"
        f" OpenAlex ids), {issues.counts} unusable, {len(catalogue)} catalogue works"
    )
    assert len(contexts) - usable_2022 == by_release[False]  # every 2020 context has its cited MAG id
    assert usable_2022 == by_release[True]  # and every 2022 context its cited OpenAlex id
    assert all(c.cited in catalogue and c.citing in catalogue for c in contexts)
