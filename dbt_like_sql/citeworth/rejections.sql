-- Every paper and paragraph a rule set dropped, one row each with the rule that dropped it (see
-- citeworth.drop_reasons); a paper in several S2ORC shards gives its kept occurrence's (s2orc.duplicate_papers).
SELECT r.*
FROM lake.citeworth_rejections AS r
ANTI JOIN lake.s2orc_duplicate_papers AS d ON NOT d.kept AND d.paper_id = r.paper_id AND d.shard = r.shard
