"""A paper as the cleaning pipelines read it, whatever its source: its paragraph rows, fields and provenance.

S2ORC shards (:func:`citeworth_assets.lib.s2orc.records.papers_from_paragraph_rows`) and unarXive papers
(:mod:`citeworth_assets.lib.citeworth.unarxive_input`) both give this shape, so CiteWorth, CiteSum and the manual
evaluation take papers from any source without importing a source's reader.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class PaperInput:
    paper_id: str
    paragraphs: list[dict]  # s2orc_paragraphs rows: paragraph_index, section, text, cite_spans, invalid_span_count
    mag_field_of_study: list[str] | None = None
    provenance: dict = field(default_factory=dict)  # release, shard, source_file, line, byte_offset of the parse
