import json

import pytest
from builders import S2ORC_METADATA

from citeworth_assets.lib.s2orc.candidate_filter import (
    CRITERION_NAMES,
    first_failed_criterion,
)

CANDIDATE = {**S2ORC_METADATA, "pubmed_id": None}  # the venue is its only venue or identifier


def test_a_paper_with_everything_is_a_candidate():
    assert first_failed_criterion(CANDIDATE) is None


@pytest.mark.parametrize(
    "change, reason",
    [
        ({"mag_field_of_study": None}, "mag_field_of_study"),
        ({"mag_field_of_study": []}, "mag_field_of_study"),
        ({"has_inbound_citations": False}, "has_inbound_citations"),
        ({"has_pdf_parse": False}, "has_pdf_parse"),
        ({"has_pdf_parsed_abstract": False}, "has_pdf_parsed_abstract"),
        ({"has_pdf_parsed_body_text": False}, "has_pdf_parsed_body_text"),
        ({"has_pdf_parsed_bib_entries": False}, "has_pdf_parsed_bib_entries"),
        ({"has_pdf_parsed_ref_entries": False}, "has_pdf_parsed_ref_entries"),
        ({"abstract": None}, "abstract"),
        ({"abstract": ""}, "abstract"),
        ({"abstract": "  "}, "abstract"),
        ({"venue": None}, "venue_or_id"),
        ({"venue": ""}, "venue_or_id"),
    ],
)
def test_each_criterion_rejects(change, reason):
    assert first_failed_criterion({**CANDIDATE, **change}) == reason


@pytest.mark.parametrize("field", ["journal", "venue", "arxiv_id", "acl_id", "pubmed_id", "pmc_id"])
def test_any_venue_or_identifier_is_enough(field):
    paper = {**CANDIDATE, "venue": None, field: "x"}
    assert first_failed_criterion(paper) is None


def test_the_first_failed_criterion_is_reported():
    paper = {**CANDIDATE, "abstract": None, "has_pdf_parse": False, "venue": None}
    assert first_failed_criterion(paper) == "has_pdf_parse"
    assert CRITERION_NAMES.index("has_pdf_parse") < CRITERION_NAMES.index("abstract")


def test_real_metadata_sample_counts(shared_data):
    """An independent count on the real sample: candidates plus rejections cover every paper."""
    papers = [json.loads(line) for line in (shared_data / "s2orc-20200705" / "metadata_sample.jsonl").open()]
    for paper in papers:
        for flag in CRITERION_NAMES[3:7]:
            paper.setdefault(flag, False)
    reasons = [first_failed_criterion(paper) for paper in papers]
    expected = sum(
        bool(p["mag_field_of_study"])
        and p["has_inbound_citations"]
        and p["has_pdf_parse"]
        and all(p[f] for f in CRITERION_NAMES[3:7])
        and bool(p["abstract"])
        and any(p[f] for f in ("journal", "venue", "arxiv_id", "acl_id", "pubmed_id", "pmc_id"))
        for p in papers
    )
    assert reasons.count(None) == expected == 42


def test_split_candidates_keeps_whole_rows_and_names_the_reason():
    import pyarrow as pa

    from citeworth_assets.lib.s2orc.candidate_filter import split_candidates

    rows = [
        {**CANDIDATE, "paper_id": "a"},
        {**CANDIDATE, "paper_id": "b", "abstract": None},
        {**CANDIDATE, "paper_id": "c"},
    ]
    accepted, rejected = split_candidates(pa.Table.from_pylist(rows))
    assert accepted.column("paper_id").to_pylist() == ["a", "c"]
    assert rejected.select(["paper_id", "failed_criterion"]).to_pylist() == [
        {"paper_id": "b", "failed_criterion": "abstract"}
    ]
    assert accepted.schema.names == list(rows[0])
