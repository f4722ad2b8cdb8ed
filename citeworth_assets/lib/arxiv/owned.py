"""What the arXiv domain owns: its lake tables, per unarXive dump file (the field papers per MAG field)."""

from citeworth_assets.lib.arxiv import schemas
from citeworth_assets.lib.arxiv.resolution import RESOLUTION_SCHEMA
from citeworth_assets.lib.arxiv.schemas import DUMP_FILE_DIMENSION as DUMP_FILE
from citeworth_assets.lib.fields import FIELD_DIMENSION
from citeworth_assets.lib.lake import LakeTable
from citeworth_assets.lib.mag.tables import FIELD_PAPER_SCHEMA
from citeworth_assets.lib.read_issues import READ_ISSUE_SCHEMA

LAKE_TABLES = (
    LakeTable("arxiv_papers", schemas.PAPER_SCHEMA, "arxiv_papers", DUMP_FILE),
    LakeTable("arxiv_paragraphs", schemas.PARAGRAPH_SCHEMA, "arxiv_paragraphs", DUMP_FILE),
    LakeTable("arxiv_references", schemas.REFERENCE_SCHEMA, "arxiv_references", DUMP_FILE),
    LakeTable("arxiv_read_issues", READ_ISSUE_SCHEMA, "arxiv_papers", DUMP_FILE),
    LakeTable("arxiv_resolutions", RESOLUTION_SCHEMA, "arxiv_resolutions", DUMP_FILE),
    LakeTable("arxiv_contexts", schemas.CONTEXT_SCHEMA, "arxiv_contexts", DUMP_FILE),
    LakeTable(schemas.DUPLICATES.table, schemas.DUPLICATES.schema, "arxiv_duplicate_papers"),
    LakeTable("arxiv_field_papers", FIELD_PAPER_SCHEMA, "arxiv_field_papers", FIELD_DIMENSION),
)
