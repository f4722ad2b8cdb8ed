"""A paper as the cleaning pipelines read it, whatever its source: its paragraph rows, fields and provenance.

S2ORC shards (:func:`citeworth_assets.lib.s2orc.records.papers_from_paragraph_rows`) and unarXive papers
(:mod:`citeworth_assets.lib.citeworth.unarxive_input`) both give this shape, so CiteWorth, CiteSum and the manual
evaluation take papers from any source without importing a source's reader.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from citeworth_assets.lib.lazy import lazy_module

pa = lazy_module("pyarrow")


def paragraph_text_fields() -> list[tuple[str, pa.DataType]]:
    """The columns every source's paragraph table starts with: which paper, where in it, under which section, what
    text (S2ORC's and the arXiv sources' paragraph tables add their own citation columns after them)."""
    return [
        ("paper_id", pa.string()),
        ("paragraph_index", pa.int32()),
        ("section", pa.string()),
        ("text", pa.string()),
    ]


@dataclass
class PaperInput:
    paper_id: str
    paragraphs: list[dict]  # s2orc_paragraphs rows: paragraph_index, section, text, cite_spans, invalid_span_count
    mag_field_of_study: list[str] | None = None
    provenance: dict = field(default_factory=dict)  # release, shard, source_file, line, byte_offset of the parse
