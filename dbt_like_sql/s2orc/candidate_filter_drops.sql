-- How many papers each criterion of the CiteWorth candidate filter drops (the first criterion a paper fails), per shard and overall.
SELECT
    coalesce(shard, 'all') AS shard,
    failed_criterion,
    count(*) AS papers
FROM s2orc.paper_rejections
GROUP BY GROUPING SETS ((shard, failed_criterion), (failed_criterion))
ORDER BY shard, papers DESC, failed_criterion
