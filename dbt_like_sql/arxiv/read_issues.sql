-- Every read problem of the unarXive dump files (truncated tarball or gzip, invalid UTF-8, a paper without markers, a
-- marker whose bibliography item is missing, ...), one row per problem, naming the file, line and paper; shard (and
-- dump_file) is the dump file's partition.
SELECT * FROM lake.arxiv_read_issues
