-- S2ORC papers, one row each: the metadata row, typed, with provenance (release, shard, file, line, byte offset).
-- A paper_id found in several shards is its kept occurrence (the first by release, shard and line); the others are
-- listed in s2orc.duplicate_papers.
SELECT p.*
FROM lake.s2orc_papers AS p
ANTI JOIN lake.s2orc_duplicate_papers AS d ON NOT d.kept AND d.paper_id = p.paper_id AND d.shard = p.shard
