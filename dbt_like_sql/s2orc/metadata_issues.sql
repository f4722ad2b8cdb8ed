-- Problems met reading the metadata files, one row per problem: file, line, byte offset, kind, message, paper.
SELECT * FROM lake.s2orc_metadata_issues
