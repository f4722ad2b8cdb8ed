"""Arrow schemas of the arXiv lake tables, shared by the unarXive 2020 and 2022+ readers.

Both releases give the same row shapes so that everything downstream (resolution, contexts,
warehouse) reads one table per kind whatever the release. Provenance names the file and the line
(or SQLite rowid for ``refs.db``) and the byte offset where the row's data starts.
"""

from __future__ import annotations

from functools import cache

from citeworth_assets.lib.arxiv.dump_files import UNARXIVE_2020
from citeworth_assets.lib.duplicates import DuplicateTable
from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.papers import paragraph_text_fields

pa = lazy_module("pyarrow")

DUMP_FILE_DIMENSION = "dump_file"  # lake partition folders of the per-file tables: <table>/dump_file=<key>/


@cache
def marker_type() -> pa.StructType:
    return pa.struct([("start", pa.int32()), ("end", pa.int32()), ("ref_id", pa.string())])


@cache
def provenance_fields() -> list:
    return [
        ("release", pa.string()),
        ("source_file", pa.string()),
        ("member", pa.string()),  # the file inside a tarball, or null
        ("line", pa.int64()),
        ("byte_offset", pa.int64()),
    ]


@cache
def paper_schema() -> pa.Schema:
    return pa.schema(
        [
            ("paper_id", pa.string()),  # normalised arXiv id (hep-th/9901001, 1703.01234)
            ("title", pa.string()),
            ("abstract", pa.string()),  # unarXive 2022+ (whitespace collapsed); null for 2020, which ships none
            ("authors", pa.list_(pa.string())),
            ("categories", pa.list_(pa.string())),
            ("discipline", pa.string()),
            ("mag_id", pa.string()),
            ("n_paragraphs", pa.int32()),
            ("n_markers", pa.int32()),
            ("n_markers_without_reference", pa.int32()),
            # unarXive 2020: lines of the text file and its lines of only whitespace, so that the text is rebuilt
            # exactly from its paragraphs (contexts are computed from the lake); null for 2022+
            ("text_lines", pa.int32()),
            ("whitespace_lines", pa.list_(pa.struct([("line", pa.int32()), ("text", pa.string())]))),
            # unarXive 2024's richer metadata; null for the releases before, which do not ship it
            ("language", pa.string()),
            ("license", pa.string()),
            ("cited_by_count", pa.int64()),
            *provenance_fields(),
        ]
    )


@cache
def paragraph_schema() -> pa.Schema:
    return pa.schema(
        [
            *paragraph_text_fields(),
            ("markers", pa.list_(marker_type())),  # {{cite:...}} positions in ``text``
            *provenance_fields(),
        ]
    )


@cache
def reference_schema() -> pa.Schema:
    return pa.schema(
        [
            ("ref_id", pa.string()),  # unarXive 2020 uuid, or 2022 bib entry hash
            ("citing_paper_id", pa.string()),
            ("citing_mag_id", pa.string()),
            ("raw_string", pa.string()),
            ("arxiv_ids", pa.list_(pa.string())),  # found in the string (and, 2022, contained_arXiv_ids)
            ("dois", pa.list_(pa.string())),
            # Links shipped with the input, kept to compare the resolver with them.
            ("linked_mag_id", pa.string()),
            ("linked_openalex_id", pa.string()),
            ("linked_arxiv_id", pa.string()),
            ("linked_doi", pa.string()),
            *provenance_fields(),
        ]
    )


@cache
def context_schema() -> pa.Schema:
    return pa.schema(
        [
            ("citing_paper_id", pa.string()),
            ("citing_mag_id", pa.string()),
            ("ref_id", pa.string()),
            ("marker_start", pa.int64()),
            ("cited_mag_id", pa.string()),
            ("cited_arxiv_id", pa.string()),
            ("adjacent_mag_ids", pa.list_(pa.string())),
            ("adjacent_arxiv_ids", pa.list_(pa.string())),
            ("text", pa.string()),
            # unarXive 2022 ships OpenAlex ids (and DOIs) where it ships links: the cited work's, and the adjacent ones'
            ("cited_openalex_id", pa.string()),
            ("cited_doi", pa.string()),
            ("adjacent_openalex_ids", pa.list_(pa.string())),
        ]
    )


# unarXive 2020 names a citing paper as its file does (stored_papers.refs_db_id); later releases by the paper id
SOURCE_ID = (
    "CASE WHEN release = ? THEN regexp_replace(regexp_extract(coalesce(member, source_file), '[^/]*$'), "
    "'\\.txt$', '') ELSE paper_id END"
)
# papers in several dump files (or twice in one), with the id the file's references and contexts name each by
# (``source_id``: unarXive 2020's file-name form, ``hep-th9901001``); the dump file is the partition folder
DUPLICATES = DuplicateTable(
    "arxiv_papers",
    "arxiv_duplicate_papers",
    DUMP_FILE_DIMENSION,
    hive_partitioning=True,
    source_id=SOURCE_ID,
    source_id_params=(UNARXIVE_2020,),
)
