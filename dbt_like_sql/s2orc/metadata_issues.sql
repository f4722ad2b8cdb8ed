-- Problems met reading the metadata files: file, line, byte offset, kind, message, paper.
SELECT * FROM lake.s2orc_metadata_issues
