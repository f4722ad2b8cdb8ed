-- Paragraph texts of the arXiv papers (each paper's once: a paper in several dump files gives its kept occurrence's,
-- see arxiv.duplicate_papers) with their {{cite:...}} marker positions and provenance down to the line.
WITH repeated AS (
    SELECT DISTINCT dump_file, paper_id FROM lake.arxiv_duplicate_papers
    QUALIFY NOT bool_or(kept) OVER (PARTITION BY dump_file, paper_id)
)
SELECT p.*
FROM lake.arxiv_paragraphs AS p
ANTI JOIN repeated AS r ON r.dump_file = p.dump_file AND r.paper_id = p.paper_id
