-- Every occurrence of an arXiv paper found in several unarXive dump files (or twice in one); the first by release,
-- dump file and line is kept, and only its contexts are in exports/arxiv/contexts.csv.
SELECT * FROM lake.arxiv_duplicate_papers
