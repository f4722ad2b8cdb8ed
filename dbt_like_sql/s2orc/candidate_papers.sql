-- Papers that pass the CiteWorth candidate filter (the CiteWorth paper, §3.1), one row each over every shard (a
-- paper in several shards: its kept occurrence, see s2orc.duplicate_papers).
SELECT p.*
FROM lake.s2orc_candidate_papers AS p
ANTI JOIN lake.s2orc_duplicate_papers AS d ON NOT d.kept AND d.paper_id = p.paper_id AND d.shard = p.shard
