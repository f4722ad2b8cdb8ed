-- Every read problem of both kinds of shard file, one row per problem (a file read twice, as a repeated shard, reports
-- its own), with the file kind in source.
SELECT 'metadata' AS source, * FROM s2orc.metadata_issues
UNION ALL BY NAME
SELECT 'pdf_parses' AS source, * FROM s2orc.pdf_parse_issues
