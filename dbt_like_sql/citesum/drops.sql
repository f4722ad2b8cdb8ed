-- Related Work sentences that are not CiteSum candidates, one row each with the reason; a citing paper found in
-- several shards gives its kept occurrence's (s2orc.duplicate_papers).
SELECT c.*
FROM lake.citesum_drops AS c
ANTI JOIN lake.s2orc_duplicate_papers AS d ON NOT d.kept AND d.paper_id = c.citing_paper_id AND d.shard = c.shard
