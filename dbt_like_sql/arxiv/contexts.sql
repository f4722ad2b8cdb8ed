-- Citation contexts, exactly the lines of exports/arxiv/contexts.csv: one row per marker of a linked bibliography item
-- (the window around it, target MAINCIT, other markers CIT, adjacent citations by MAG, arXiv and OpenAlex id, the
-- cited DOI), each citing paper once: a paper in several dump files gives the contexts of its kept occurrence only
-- (arxiv.duplicate_papers); dump_file names the file they were read from.
WITH repeated AS (
    SELECT DISTINCT dump_file, source_id FROM lake.arxiv_duplicate_papers
    QUALIFY NOT bool_or(kept) OVER (PARTITION BY dump_file, paper_id)
)
SELECT c.*
FROM lake.arxiv_contexts AS c
ANTI JOIN repeated AS r ON r.dump_file = c.dump_file AND r.source_id = c.citing_paper_id
