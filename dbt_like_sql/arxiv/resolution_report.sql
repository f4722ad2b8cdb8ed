-- Reference resolution as §4.4.1 of the thesis "Semantic approaches to citation recommendation" reports it: per release and over all ('all'), the share of bibliography items
-- resolved by each route (arxiv_id, doi, title) and failed for each reason (empty_string, no_title, author_mismatch).
-- materialized: table
WITH outcomes AS (
    SELECT
        release,
        CASE WHEN resolved_by IS NOT NULL THEN 'resolved' ELSE 'failed' END AS outcome,
        coalesce(resolved_by, failure) AS route_or_reason
    FROM arxiv.references
)
SELECT
    coalesce(release, 'all') AS release,
    outcome,
    route_or_reason,
    count(*) AS items,
    round(count(*) / sum(count(*)) OVER (PARTITION BY coalesce(release, 'all')), 4) AS share
FROM outcomes
GROUP BY GROUPING SETS ((release, outcome, route_or_reason), (outcome, route_or_reason))
ORDER BY release, outcome DESC, items DESC, route_or_reason
