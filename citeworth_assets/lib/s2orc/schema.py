"""S2ORC 20200705v1 lake schemas: typed paper and paragraph rows with provenance, and read issues."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from citeworth_assets.lib.duplicates import DuplicateTable
from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.papers import paragraph_text_fields

pa = lazy_module("pyarrow")


@cache
def author_type() -> pa.StructType:
    return pa.struct(
        [("first", pa.string()), ("middle", pa.list_(pa.string())), ("last", pa.string()), ("suffix", pa.string())]
    )


@cache
def citation_span_type() -> pa.StructType:
    return pa.struct(
        [
            ("start", pa.int32()),
            ("end", pa.int32()),
            ("text", pa.string()),
            ("ref_id", pa.string()),
            ("linked_paper_id", pa.string()),
        ]
    )


@cache
def reference_span_type() -> pa.StructType:
    return pa.struct([("start", pa.int32()), ("end", pa.int32()), ("text", pa.string()), ("ref_id", pa.string())])


@cache
def provenance_fields() -> list:
    return [
        ("release", pa.string()),
        ("shard", pa.string()),
        ("source_file", pa.string()),
        ("line", pa.int64()),
        ("byte_offset", pa.int64()),
    ]


STRING_FIELDS = (
    "title",
    "abstract",
    "arxiv_id",
    "acl_id",
    "pmc_id",
    "pubmed_id",
    "doi",
    "venue",
    "journal",
    "mag_id",
    "s2_url",
)
LIST_FIELDS = ("mag_field_of_study", "outbound_citations", "inbound_citations")
FLAG_FIELDS = ("has_outbound_citations", "has_inbound_citations", "has_pdf_parse")
# Present in the release only for papers that have a PDF parse; absent means false.
PDF_FLAG_FIELDS = (
    "has_pdf_body_text",
    "has_pdf_parsed_abstract",
    "has_pdf_parsed_body_text",
    "has_pdf_parsed_bib_entries",
    "has_pdf_parsed_ref_entries",
)
# mag_field_of_study is null for papers without MAG categories in the real release; not a defect.
NULLABLE_LISTS = ("mag_field_of_study",)


@cache
def paper_schema() -> pa.Schema:
    return pa.schema(
        [
            ("paper_id", pa.string()),
            ("title", pa.string()),
            ("authors", pa.list_(author_type())),
            ("abstract", pa.string()),
            ("year", pa.int32()),
            *[(name, pa.string()) for name in STRING_FIELDS[2:10]],
            ("mag_field_of_study", pa.list_(pa.string())),
            ("outbound_citations", pa.list_(pa.string())),
            ("inbound_citations", pa.list_(pa.string())),
            *[(name, pa.bool_()) for name in FLAG_FIELDS + PDF_FLAG_FIELDS],
            ("s2_url", pa.string()),
            *provenance_fields(),
        ]
    )


@cache
def paragraph_schema() -> pa.Schema:
    return pa.schema(
        [
            *paragraph_text_fields(),
            ("cite_spans", pa.list_(citation_span_type())),
            ("ref_spans", pa.list_(reference_span_type())),
            ("invalid_span_count", pa.int32()),
            *provenance_fields(),
        ]
    )


@dataclass(frozen=True)
class ShardSource:
    """Where rows come from: the release, the shard's partition key and the file read."""

    release: str
    shard: str
    path: Path

    def provenance(self, line: int, byte_offset: int) -> dict:
        return {
            "release": self.release,
            "shard": self.shard,
            "source_file": self.path.name,
            "line": line,
            "byte_offset": byte_offset,
        }


DUPLICATES = DuplicateTable("s2orc_papers", "s2orc_duplicate_papers", "shard")  # papers in several shards
