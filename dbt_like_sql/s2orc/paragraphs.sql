-- Body-text paragraphs of the candidate papers, one row per paragraph of each paper's kept occurrence (a paper in
-- several shards gives one shard's, see s2orc.duplicate_papers): section, text, citation and reference spans,
-- provenance.
SELECT p.*
FROM lake.s2orc_paragraphs AS p
ANTI JOIN lake.s2orc_duplicate_papers AS d ON NOT d.kept AND d.paper_id = p.paper_id AND d.shard = p.shard
