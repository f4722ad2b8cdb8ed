-- Problems met reading the pdf_parses files, one row per problem: file, line, byte offset, kind, message, paper.
SELECT * FROM lake.s2orc_pdf_parse_issues
