"""The CiteWorth candidate-paper filter (CiteWorth §3.1).

A paper is a candidate when abstract, body text, bibliography, tables and figures, venue
information, inbound citations and MAG categories are all available. On S2ORC metadata that is the
conjunction of the criteria below, checked in this order; a rejected paper is reported with the
first criterion it fails, so drop counts per criterion add up to the rejected total.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from itertools import islice

from citeworth_assets.lib.filters import Criterion, column_criterion, first_failures
from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.papers import PaperInput
from citeworth_assets.lib.reasons import ReasonRegistry
from citeworth_assets.lib.s2orc.schema import paper_schema, provenance_fields

np = lazy_module("numpy")
pa = lazy_module("pyarrow")
pc = lazy_module("pyarrow.compute")

VENUE_OR_ID_FIELDS = ("journal", "venue", "arxiv_id", "acl_id", "pubmed_id", "pmc_id")
BATCH_PAPERS = 5_000  # papers judged at a time when read without the lake
# Each criterion is a drop reason of the S2ORC domain: a rejected paper carries the first one it fails.
REASONS = ReasonRegistry("s2orc", ("paper",))
REASONS.describe(
    "paper",
    {
        "mag_field_of_study": "the paper has no MAG field of study (S2AG: no MAG level-0 category among the papers "
        "row's s2fieldsofstudy of source external)",
        "has_inbound_citations": "no paper of the corpus cites it (S2AG: papers citationcount is 0 or missing)",
        "has_pdf_parse": "the corpus has no PDF parse of the paper (S2AG: always parsed: the row is a full text's)",
        "has_pdf_parsed_abstract": "the PDF parse has no abstract (S2AG s2orc: no abstract span; s2orc_v2: no "
        "abstracts row)",
        "has_pdf_parsed_body_text": "the PDF parse has no body text (S2AG: no paragraph span)",
        "has_pdf_parsed_bib_entries": "the PDF parse has no bibliography entries (S2AG: no bibentry / bib_entry span)",
        "has_pdf_parsed_ref_entries": "the PDF parse has no table or figure references (S2AG: no figure or table span)",
        "abstract": "the metadata's abstract is missing or blank (S2AG: no abstracts row and no abstract span)",
        "venue_or_id": "no journal, venue, arXiv, ACL, PubMed or PMC identifier (S2AG: papers journal.name, venue, "
        "externalids ArXiv, ACL, PubMed, PubMedCentral)",
    },
)
ASCII_VISIBLE = "[!-~]"  # a text with one of these is not blank, whatever the definition of whitespace


def _column(papers: pa.Table, name: str) -> pa.Array:
    # A table built from Python rows may type a column of nulls as null: the lake type says what it is.
    return papers.column(name).combine_chunks().cast(paper_schema().field(name).type)


def _truth(array: pa.Array) -> np.ndarray:
    return pc.fill_null(array, False).to_numpy(zero_copy_only=False)


def _flag(name: str) -> Criterion:
    """The criterion that the metadata flag ``name`` is true (null is false), named and dropping after it."""
    return Criterion(name, REASONS, (name,), lambda papers: _truth(_column(papers, name)), columns=True)


def _filled(papers: pa.Table, name: str) -> np.ndarray:
    return _truth(pc.not_equal(_column(papers, name), ""))


@column_criterion(REASONS, "mag_field_of_study")
def has_field_of_study(papers: pa.Table) -> np.ndarray:
    return _truth(pc.greater(pc.list_value_length(_column(papers, "mag_field_of_study")), 0))


@column_criterion(REASONS, "abstract")
def has_abstract(papers: pa.Table) -> np.ndarray:
    """Not null and not blank by Python's ``str.strip``; Python looks only at the rare texts without a visible ASCII
    character."""
    texts = _column(papers, "abstract")
    has = _truth(pc.match_substring_regex(texts, ASCII_VISIBLE))
    rest = np.flatnonzero(~has & texts.is_valid().to_numpy(zero_copy_only=False))
    if len(rest):
        has[rest] = [bool(text.strip()) for text in texts.take(pa.array(rest)).to_pylist()]
    return has


@column_criterion(REASONS, "venue_or_id")
def has_venue_or_id(papers: pa.Table) -> np.ndarray:
    return np.logical_or.reduce([_filled(papers, name) for name in VENUE_OR_ID_FIELDS])


FLAGS = (  # metadata flags that must be true (null is false), each a criterion dropping under its own name
    "has_inbound_citations",
    "has_pdf_parse",
    "has_pdf_parsed_abstract",
    "has_pdf_parsed_body_text",
    "has_pdf_parsed_bib_entries",
    "has_pdf_parsed_ref_entries",
)
# The filter, in the order of CiteWorth §3.1's list; each criterion judges whole columns of a batch of papers.
CRITERIA = (has_field_of_study, *map(_flag, FLAGS), has_abstract, has_venue_or_id)
CRITERION_NAMES = tuple(reason for judge in CRITERIA for reason in judge.reasons)
if CRITERION_NAMES != tuple(REASONS):
    raise ValueError(f"every candidate criterion needs a registered meaning: {CRITERION_NAMES} vs {tuple(REASONS)}")


# the metadata fields the criteria read: a single paper is judged as a one-row batch of them
@cache
def criterion_fields() -> pa.Schema:
    return pa.schema(
        [paper_schema().field(name) for name in ("mag_field_of_study", *FLAGS, "abstract", *VENUE_OR_ID_FIELDS)]
    )


def first_failed_criterion(paper: dict) -> str | None:
    """The name of the first criterion a paper (a metadata row) fails, or None for a candidate."""
    return first_failures(CRITERIA, pa.Table.from_pylist([paper], schema=criterion_fields()))[0]


def shard_candidates(shard, log) -> tuple[dict[str, list | None], Iterator[PaperInput]]:
    """The candidate papers of one S2ORC shard read from its files without the lake: their fields of study (read
    now) and their papers with body paragraphs (read as the iterator is consumed)."""
    from citeworth_assets.lib.s2orc.records import (
        ShardSource,
        papers_from_paragraph_rows,
        read_metadata,
        read_paragraphs,
    )

    fields = {}
    rows = read_metadata(ShardSource(shard.release, shard.key, shard.metadata), log)
    while batch := list(islice(rows, BATCH_PAPERS)):
        kept = first_failures(CRITERIA, pa.Table.from_pylist(batch, schema=criterion_fields())) == None  # noqa: E711
        fields.update((row["paper_id"], row["mag_field_of_study"]) for row, keep in zip(batch, kept) if keep)
    rows = read_paragraphs(ShardSource(shard.release, shard.key, shard.pdf_parses), log, set(fields))
    return fields, papers_from_paragraph_rows(rows, fields)


def split_candidates(papers: pa.RecordBatch | pa.Table) -> tuple[pa.Table, pa.Table]:
    """(candidates, rejections with a ``failed_criterion`` column) of a batch of paper rows.

    The criteria are computed over whole columns; whole rows stay in Arrow.
    """
    papers = pa.table(papers) if isinstance(papers, pa.RecordBatch) else papers
    failed = first_failures(CRITERIA, papers)
    is_candidate = failed == None  # noqa: E711  (element-wise)
    reasons = pa.array(failed[~is_candidate], pa.string())
    rejected = papers.filter(pa.array(~is_candidate)).append_column("failed_criterion", reasons)
    return papers.filter(pa.array(is_candidate)), rejected


@cache
def rejection_schema() -> pa.Schema:
    return pa.schema(
        [
            ("paper_id", pa.string()),
            ("title", pa.string()),
            ("mag_field_of_study", pa.list_(pa.string())),
            ("failed_criterion", pa.string()),
            *provenance_fields(),
        ]
    )
