-- arXiv papers, one row each: normalised arXiv id, metadata and abstract (2022+; null for 2020), discipline, citing
-- MAG id, marker counts (markers whose bibliography item is missing counted apart), provenance (release, file,
-- member, line, dump_file). A paper found in several dump files (or twice in one) is its kept occurrence; the
-- others are listed in arxiv.duplicate_papers.
WITH repeated AS (
    SELECT DISTINCT dump_file, paper_id FROM lake.arxiv_duplicate_papers
    QUALIFY NOT bool_or(kept) OVER (PARTITION BY dump_file, paper_id)
)
SELECT p.*
FROM lake.arxiv_papers AS p
ANTI JOIN repeated AS r ON r.dump_file = p.dump_file AND r.paper_id = p.paper_id
