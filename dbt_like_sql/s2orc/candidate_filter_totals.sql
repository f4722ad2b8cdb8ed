-- How many papers each criterion of the CiteWorth candidate filter drops over all shards (the first criterion a paper fails), with its share of all papers read.
SELECT
    failed_criterion,
    count(*) AS papers,
    round(count(*) / (SELECT count(*) FROM s2orc.papers), 4) AS share_of_papers
FROM s2orc.paper_rejections
GROUP BY failed_criterion
ORDER BY papers DESC, failed_criterion
