-- Every occurrence of an arXiv paper found in several unarXive dump files, one row each (a repeat within one file is
-- a duplicate_paper_id read issue); the first by release, dump file and line is kept, and only its rows are in
-- arxiv.papers, arxiv.paragraphs, arxiv.references, arxiv.contexts and exports/arxiv/contexts.csv. source_id: the id
-- the file's references and contexts name the paper by (unarXive 2020: its file name's form).
SELECT * FROM lake.arxiv_duplicate_papers
