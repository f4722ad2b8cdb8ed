"""One partition through a CiteWorth rule set: papers in, accepted paragraphs and rejections out as lake rows, each
drop tallied by the filter runner (:func:`citeworth_assets.lib.filters.run`). Shared by the S2ORC shards and the
arXiv dump files, so both sources are cleaned, written and counted the same way."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path

from citeworth_assets.lib import filters, lake
from citeworth_assets.lib.citeworth.cleaning import (
    INTERNAL_ERROR,
    AcceptedParagraph,
    PaperResult,
    clean_papers,
)
from citeworth_assets.lib.citeworth.reasons import REASONS
from citeworth_assets.lib.citeworth.rules import CHECK_WORTHY, RuleSet
from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.s2orc.candidate_filter import REASONS as CANDIDATE_REASONS
from citeworth_assets.lib.s2orc.records import provenance_fields

pa = lazy_module("pyarrow")

ARXIV_FILE_DIMENSION = "file"  # folders of citeworth_arxiv_*: <table>/file=<rule set>.<dump file key>/


@cache
def sample_type() -> pa.StructType:
    return pa.struct(
        [
            ("text", pa.string()),
            ("label", pa.string()),
            ("original_text", pa.string()),
            ("ref_ids", pa.list_(pa.list_(pa.string()))),
            ("citation_text", pa.list_(pa.string())),
        ]
    )


@cache
def paragraph_schema() -> pa.Schema:
    return pa.schema(
        [
            ("rule_set", pa.string()),
            ("paper_id", pa.string()),
            ("section_idx", pa.int32()),
            ("section_title", pa.string()),
            ("original_text", pa.string()),
            ("mag_field_of_study", pa.list_(pa.string())),
            ("file_index", pa.string()),
            ("file_offset", pa.int64()),
            ("samples", pa.list_(sample_type())),
            ("sentences", pa.int32()),
            ("cite_worthy", pa.int32()),
            *provenance_fields(),
        ]
    )


@cache
def rejection_schema() -> pa.Schema:
    return pa.schema(
        [
            ("rule_set", pa.string()),
            ("level", pa.string()),
            ("paper_id", pa.string()),
            ("paragraph_index", pa.int32()),
            ("reason", pa.string()),
            ("sentence_index", pa.int32()),
            ("sentence_text", pa.string()),
            ("detail", pa.string()),
            ("shard", pa.string()),
            ("source_file", pa.string()),
            ("line", pa.int64()),
            ("byte_offset", pa.int64()),
        ]
    )


def rules_key(rules: str, key: str) -> str:
    """Lake partitions of CiteWorth tables are per rule set (and shard or field), so rule sets coexist."""
    return f"{rules}.{key}"


def paragraph_row(rules: RuleSet, result: PaperResult, accepted: AcceptedParagraph) -> dict:
    """A ``citeworth_paragraphs`` lake row: the release fields (``dataset.release_record`` picks them), counts and
    provenance."""
    paragraph, paper = accepted.paragraph, result.paper
    samples = [
        {
            "text": s.text,
            "label": s.label,
            "original_text": s.original_text,
            "ref_ids": s.ref_ids,
            "citation_text": s.citation_text,
        }
        for s in accepted.verdict.samples
    ]
    shard = paper.provenance.get("shard")
    return {
        "rule_set": rules.name,
        "paper_id": paper.paper_id,
        "section_idx": paragraph["paragraph_index"],
        "file_index": shard.rsplit("_", 1)[-1] if shard else None,
        "file_offset": paper.provenance.get("byte_offset"),
        "mag_field_of_study": paper.mag_field_of_study,
        "original_text": paragraph["text"],
        "section_title": paragraph["section"],
        "samples": samples,
        "sentences": len(samples),
        "cite_worthy": sum(sample.label == CHECK_WORTHY for sample in accepted.verdict.samples),
        **paper.provenance,
    }


def rejection_rows(rules: RuleSet, result: PaperResult) -> Iterator[dict]:
    provenance = result.paper.provenance
    for drop in result.drops:
        yield {
            "rule_set": rules.name,
            **vars(drop),
            "shard": provenance.get("shard"),
            "source_file": provenance.get("source_file"),
            "line": provenance.get("line"),
            "byte_offset": provenance.get("byte_offset"),
        }


def cleaning_run(
    lake_root: Path,
    step: str,
    tables: tuple[str, str],
    rules_name: str,
    key: str,
    dimension: str = lake.SHARD_DIMENSION,
    candidate_filter: bool = False,
):
    """The filter run of one partition (:func:`citeworth_assets.lib.filters.run`): its accepted paragraphs and
    rejections (``tables``: their names) under the rule set's key, so that rule sets coexist, and the tally of the
    rule set (and of the candidate filter, where ``candidate_filter`` says the step applies it too)."""
    accepted, rejected = tables
    registries = [REASONS, CANDIDATE_REASONS] if candidate_filter else [REASONS]
    kept, dropped = (accepted, paragraph_schema()), (rejected, rejection_schema())
    return filters.run(lake_root, step, rules_key(rules_name, key), registries, kept, dropped, dimension)


def clean_partition(papers: Iterable, rules: RuleSet, splitter, run: filters.FilterRun) -> tuple[int, list[str]]:
    """Clean ``papers`` (:class:`PaperInput`) with ``rules`` into the filter run's accepted paragraphs and
    rejections; returns the number of papers cleaned and, for each internal error, "<paper id> (line N): detail"."""
    papers_cleaned, errors = 0, []
    for result in clean_papers(papers, rules, splitter):
        papers_cleaned += 1
        for item in result.accepted:
            run.keep(paragraph_row(rules, result, item))
        for row in rejection_rows(rules, result):
            if row["reason"] == INTERNAL_ERROR:
                errors.append(f"{row['paper_id']} (line {row['line']}): {row['detail']}")
            run.drop(row["reason"], row)
    return papers_cleaned, errors


def candidate_rejection(rules_name: str, paper_id: str, criterion: str, source_file: str, line: int | None) -> dict:
    """A paper-level rejection row for a paper the CiteWorth candidate filter (CiteWorth §3.1) turned away before
    cleaning: arXiv papers reach the rule set without S2ORC's separate candidate step, so the drop is kept here."""
    return {
        "rule_set": rules_name,
        "level": "paper",
        "paper_id": paper_id,
        "paragraph_index": None,
        "reason": criterion,
        "sentence_index": None,
        "sentence_text": None,
        "detail": "CiteWorth candidate filter",
        "shard": None,
        "source_file": source_file,
        "line": line,
        "byte_offset": None,
    }
