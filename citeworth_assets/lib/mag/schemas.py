"""Arrow schemas of the works catalogue, shared by the MAG and OpenAlex readers."""

from __future__ import annotations

from functools import cache

from citeworth_assets.lib.lazy import lazy_module

pa = lazy_module("pyarrow")


@cache
def work_schema() -> pa.Schema:
    return pa.schema(
        [
            ("work_id", pa.string()),  # "mag:<PaperId>" or the OpenAlex id "W..."
            ("source", pa.string()),  # mag | openalex
            ("mag_id", pa.string()),
            ("openalex_id", pa.string()),
            ("title", pa.string()),
            ("normalised_title", pa.string()),
            ("year", pa.int32()),
            ("authors", pa.list_(pa.string())),
            ("citation_count", pa.int64()),
            ("doi", pa.string()),
            ("arxiv_id", pa.string()),
            ("fields", pa.list_(pa.string())),  # level-0 fields of study
            ("source_file", pa.string()),
            ("line", pa.int64()),
        ]
    )


@cache
def work_reference_schema() -> pa.Schema:
    return pa.schema([("citing_work_id", pa.string()), ("cited_work_id", pa.string()), ("source", pa.string())])


# A version of a work that a newer one replaced (the MAG's later Papers.txt line, OpenAlex's later updated_date)
@cache
def work_duplicate_schema() -> pa.Schema:
    return pa.schema(
        [
            ("work_id", pa.string()),
            ("source", pa.string()),
            ("versions", pa.int64()),  # rows of the dump with this id
            ("source_file", pa.string()),  # a version not kept
            ("line", pa.int64()),
            ("title", pa.string()),
            ("kept_source_file", pa.string()),  # the version kept (the newest)
            ("kept_line", pa.int64()),
            ("kept_title", pa.string()),
        ]
    )
