-- Every occurrence of a paper_id found in several shards; the first by release, shard and line is kept.
SELECT * FROM lake.s2orc_duplicate_papers
