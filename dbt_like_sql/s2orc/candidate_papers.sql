-- Papers that pass the CiteWorth candidate filter (seeds/001 §3.1), every shard.
SELECT * FROM lake.s2orc_candidate_papers
