-- Papers that pass the CiteWorth candidate filter (the CiteWorth paper, §3.1), every shard.
SELECT * FROM lake.s2orc_candidate_papers
