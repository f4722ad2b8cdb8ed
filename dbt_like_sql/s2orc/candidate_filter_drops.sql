-- How many papers each criterion of the CiteWorth candidate filter drops (the first criterion a paper fails), per shard; a plain sum over shards is the total (s2orc.candidate_filter_totals has it).
SELECT
    shard,
    failed_criterion,
    count(*) AS papers
FROM s2orc.paper_rejections
GROUP BY shard, failed_criterion
ORDER BY shard, papers DESC, failed_criterion
