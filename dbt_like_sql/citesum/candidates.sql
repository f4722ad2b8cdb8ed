-- Related Work sentences citing one linked paper, one row each, with ROUGE recalls, the thresholds they fail and
-- whether kept; a citing paper found in several shards gives its kept occurrence's (s2orc.duplicate_papers), as
-- citesum.examples does.
SELECT c.*
FROM lake.citesum_candidates AS c
ANTI JOIN lake.s2orc_duplicate_papers AS d ON NOT d.kept AND d.paper_id = c.citing_paper_id AND d.shard = c.shard
