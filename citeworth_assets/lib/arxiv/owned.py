"""What the arXiv domain owns: its lake tables, per unarXive dump file (the field papers per MAG field)."""

from citeworth_assets.lib.arxiv import schemas
from citeworth_assets.lib.arxiv.resolution import resolution_schema
from citeworth_assets.lib.arxiv.schemas import DUMP_FILE_DIMENSION as DUMP_FILE
from citeworth_assets.lib.fields import FIELD_DIMENSION
from citeworth_assets.lib.lake import LakeTable
from citeworth_assets.lib.mag.tables import field_paper_schema
from citeworth_assets.lib.read_issues import read_issue_schema

LAKE_TABLES = (
    LakeTable("arxiv_papers", schemas.paper_schema, "arxiv_papers", DUMP_FILE),
    LakeTable("arxiv_paragraphs", schemas.paragraph_schema, "arxiv_paragraphs", DUMP_FILE),
    LakeTable("arxiv_references", schemas.reference_schema, "arxiv_references", DUMP_FILE),
    LakeTable("arxiv_read_issues", read_issue_schema, "arxiv_papers", DUMP_FILE),
    LakeTable("arxiv_resolutions", resolution_schema, "arxiv_resolutions", DUMP_FILE),
    LakeTable("arxiv_contexts", schemas.context_schema, "arxiv_contexts", DUMP_FILE),
    LakeTable(schemas.DUPLICATES.table, lambda: schemas.DUPLICATES.schema, "arxiv_duplicate_papers"),
    LakeTable("arxiv_field_papers", field_paper_schema, "arxiv_field_papers", FIELD_DIMENSION),
)
