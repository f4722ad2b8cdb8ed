"""What the catalogue (MAG, OpenAlex, arXiv metadata) owns: the works, their edges, titles and fields of study."""

from citeworth_assets.lib.lake import LakeTable
from citeworth_assets.lib.mag.schemas import WORK_DUPLICATE_SCHEMA, WORK_REFERENCE_SCHEMA, WORK_SCHEMA
from citeworth_assets.lib.mag.tables import ARXIV_TITLE_SCHEMA, FIELD_OF_STUDY_SCHEMA
from citeworth_assets.lib.read_issues import READ_ISSUE_SCHEMA

LAKE_TABLES = (
    LakeTable("works", WORK_SCHEMA, "works"),
    LakeTable("arxiv_titles", ARXIV_TITLE_SCHEMA, "works"),
    LakeTable("catalogue_read_issues", READ_ISSUE_SCHEMA, "works"),
    LakeTable("work_duplicates", WORK_DUPLICATE_SCHEMA, "works"),
    LakeTable("work_references", WORK_REFERENCE_SCHEMA, "work_references"),
    LakeTable("mag_fields_of_study", FIELD_OF_STUDY_SCHEMA, "mag_fields_of_study"),
)
