"""The CiteWorth candidate-paper filter (seeds/001 §3.1).

A paper is a candidate when abstract, body text, bibliography, tables and figures, venue
information, inbound citations and MAG categories are all available. On S2ORC metadata that is the
conjunction of the criteria below, checked in this order; a rejected paper is reported with the
first criterion it fails, so drop counts per criterion add up to the rejected total.
"""

from __future__ import annotations

from collections.abc import Callable

import pyarrow as pa
import pyarrow.compute  # noqa: F401  (pa.compute)

from citeworth_assets.lib.s2orc.records import PROVENANCE

VENUE_OR_ID_FIELDS = ("journal", "venue", "arxiv_id", "acl_id", "pubmed_id", "pmc_id")


def _filled(value) -> bool:
    return value is not None and value != "" and value != []


CRITERIA: tuple[tuple[str, Callable[[dict], bool]], ...] = (
    ("mag_field_of_study", lambda paper: _filled(paper["mag_field_of_study"])),
    ("has_inbound_citations", lambda paper: bool(paper["has_inbound_citations"])),
    ("has_pdf_parse", lambda paper: bool(paper["has_pdf_parse"])),
    ("has_pdf_parsed_abstract", lambda paper: bool(paper["has_pdf_parsed_abstract"])),
    ("has_pdf_parsed_body_text", lambda paper: bool(paper["has_pdf_parsed_body_text"])),
    ("has_pdf_parsed_bib_entries", lambda paper: bool(paper["has_pdf_parsed_bib_entries"])),
    ("has_pdf_parsed_ref_entries", lambda paper: bool(paper["has_pdf_parsed_ref_entries"])),
    ("abstract", lambda paper: _filled(paper["abstract"]) and bool(paper["abstract"].strip())),
    ("venue_or_id", lambda paper: any(_filled(paper[name]) for name in VENUE_OR_ID_FIELDS)),
)
CRITERION_NAMES = tuple(name for name, _ in CRITERIA)


def first_failed_criterion(paper: dict) -> str | None:
    """The name of the first criterion the paper fails, or None for a candidate."""
    for name, holds in CRITERIA:
        if not holds(paper):
            return name
    return None


CRITERION_FIELDS = (
    "mag_field_of_study",
    "has_inbound_citations",
    "has_pdf_parse",
    "has_pdf_parsed_abstract",
    "has_pdf_parsed_body_text",
    "has_pdf_parsed_bib_entries",
    "has_pdf_parsed_ref_entries",
    "abstract",
    *VENUE_OR_ID_FIELDS,
)


def split_candidates(papers: pa.RecordBatch | pa.Table) -> tuple[pa.Table, pa.Table]:
    """(candidates, rejections with a ``failed_criterion`` column) of a batch of paper rows.

    Only the columns the criteria read are turned into Python objects; whole rows stay in Arrow.
    """
    papers = pa.table(papers) if isinstance(papers, pa.RecordBatch) else papers
    reasons = [first_failed_criterion(paper) for paper in papers.select(CRITERION_FIELDS).to_pylist()]
    is_candidate = pa.array([reason is None for reason in reasons])
    rejected = papers.filter(pa.compute.invert(is_candidate))
    failed = pa.array([reason for reason in reasons if reason is not None], pa.string())
    return papers.filter(is_candidate), rejected.append_column("failed_criterion", failed)


REJECTION_SCHEMA = pa.schema(
    [
        ("paper_id", pa.string()),
        ("title", pa.string()),
        ("mag_field_of_study", pa.list_(pa.string())),
        ("failed_criterion", pa.string()),
        *PROVENANCE,
    ]
)
