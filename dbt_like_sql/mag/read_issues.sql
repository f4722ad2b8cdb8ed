-- Every read problem of the catalogue inputs (MAG lines with too few columns, bad ids, invalid UTF-8, damaged OpenAlex
-- gzip parts, ...), naming the file and line.
SELECT * FROM lake.catalogue_read_issues
