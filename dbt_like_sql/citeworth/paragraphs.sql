-- Paragraphs accepted by each CiteWorth rule set, in the release schema, with provenance: one row per paragraph of a
-- paper's kept occurrence (a paper in several S2ORC shards gives one shard's, see s2orc.duplicate_papers).
SELECT p.*
FROM lake.citeworth_paragraphs AS p
ANTI JOIN lake.s2orc_duplicate_papers AS d ON NOT d.kept AND d.paper_id = p.paper_id AND d.shard = p.shard
