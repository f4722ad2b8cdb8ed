-- The resolver against the links shipped in the input, per release and over all ('all'): items linked to the same work
-- by both, to different works, only by the input, only by the resolver, by neither; agreement = same / (same + different).
-- materialized: table
SELECT
    coalesce(release, 'all') AS release,
    count(*) FILTER (WHERE link_comparison = 'same') AS same,
    count(*) FILTER (WHERE link_comparison = 'different') AS different,
    count(*) FILTER (WHERE link_comparison = 'shipped_only') AS shipped_only,
    count(*) FILTER (WHERE link_comparison = 'ours_only') AS ours_only,
    count(*) FILTER (WHERE link_comparison = 'neither') AS neither,
    round(same / nullif(same + different, 0), 4) AS agreement
FROM arxiv.references
GROUP BY GROUPING SETS ((release), ())
ORDER BY release
