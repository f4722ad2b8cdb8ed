"""Lake tables of the catalogue and field steps whose rows the Dagster glue assembles (fields of study, arXiv
titles, arXiv papers per field)."""

from __future__ import annotations

from functools import cache

from citeworth_assets.lib.lazy import lazy_module

pa = lazy_module("pyarrow")


@cache
def field_of_study_schema() -> pa.Schema:
    return pa.schema(
        [
            ("field_of_study_id", pa.int64()),  # the MAG's FieldOfStudyId, null for a field seen only in OpenAlex
            ("display_name", pa.string()),
            ("field_key", pa.string()),  # the static partition key (computer_science)
            ("is_partition", pa.bool_()),  # the key is one of the static field partitions
            ("works", pa.int64()),  # catalogue works with this level-0 field
        ]
    )


@cache
def arxiv_title_schema() -> pa.Schema:
    return pa.schema([("arxiv_id", pa.string()), ("title", pa.string())])


# arXiv papers per level-0 field (the static field partitions): which field and where it came from
@cache
def field_paper_schema() -> pa.Schema:
    return pa.schema(
        [
            ("paper_id", pa.string()),
            ("release", pa.string()),
            ("mag_id", pa.string()),
            ("title", pa.string()),
            ("discipline", pa.string()),  # unarXive 2022's, as given
            ("field_of_study", pa.string()),  # the MAG level-0 field
            ("field_source", pa.string()),  # catalogue | discipline
            ("field_key", pa.string()),  # the partition key
        ]
    )
