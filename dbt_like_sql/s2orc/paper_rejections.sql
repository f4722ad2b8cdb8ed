-- Papers the candidate filter rejects, one row each with the first criterion it fails (a paper in several shards:
-- its kept occurrence, see s2orc.duplicate_papers).
SELECT p.*
FROM lake.s2orc_paper_rejections AS p
ANTI JOIN lake.s2orc_duplicate_papers AS d ON NOT d.kept AND d.paper_id = p.paper_id AND d.shard = p.shard
