"""What the catalogue (MAG, OpenAlex, arXiv metadata) owns: the works, their edges, titles and fields of study."""

from citeworth_assets.lib.lake import LakeTable
from citeworth_assets.lib.mag.schemas import work_duplicate_schema, work_reference_schema, work_schema
from citeworth_assets.lib.mag.tables import arxiv_title_schema, field_of_study_schema
from citeworth_assets.lib.read_issues import read_issue_schema

LAKE_TABLES = (
    LakeTable("works", work_schema, "works"),
    LakeTable("arxiv_titles", arxiv_title_schema, "works"),
    LakeTable("catalogue_read_issues", read_issue_schema, "works"),
    LakeTable("work_duplicates", work_duplicate_schema, "works"),
    LakeTable("work_references", work_reference_schema, "work_references"),
    LakeTable("mag_fields_of_study", field_of_study_schema, "mag_fields_of_study"),
)
