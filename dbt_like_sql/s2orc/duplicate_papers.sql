-- Every occurrence of a paper_id found in several shards, one row each; the first by release, shard and line is kept
-- and is the one the other s2orc views, CiteWorth, CiteSum and ROUGE-SciQFS read.
SELECT * FROM lake.s2orc_duplicate_papers
