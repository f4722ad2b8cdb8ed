"""The outcomes lake table: one row per submission of a source dump (converted, or why not, and the time taken)."""

from __future__ import annotations

from functools import cache

from citeworth_assets.lib.lazy import lazy_module

pa = lazy_module("pyarrow")

OUTCOMES_TABLE = "arxiv_source_outcomes"
DIMENSION = "source_dump"  # lake partition folders: arxiv_source_outcomes/source_dump=<key>/


@cache
def outcome_schema() -> pa.Schema:
    return pa.schema(
        [
            ("arxiv_id", pa.string()),
            ("source_file", pa.string()),
            ("member", pa.string()),
            ("outcome", pa.string()),  # converted | pdf_only | no_tex | corrupt_archive | no_main_file | ...
            ("detail", pa.string()),
            ("seconds", pa.float64()),
            ("main_file", pa.string()),
            ("bib_source", pa.string()),
            ("salvage", pa.string()),  # none | repaired | by_section
            ("n_paragraphs", pa.int32()),
            ("n_markers", pa.int32()),
            ("n_markers_linked", pa.int32()),
            ("n_bib_entries", pa.int32()),
            ("n_citation_keys", pa.int32()),
            ("n_skipped_members", pa.int32()),
            ("n_passed_through", pa.int32()),
        ]
    )
