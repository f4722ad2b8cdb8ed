-- Every reason a filter of the platform drops something for (the S2ORC candidate filter, CiteWorth's rules, CiteSum, ROUGE-SciQFS), with its level, meaning and the number of drops the filters' tallies (lake.filter_tallies) hold for it, and the steps that tally it (dropped is null where no step does).
WITH tallied AS (
    SELECT domain, reason, sum(items)::BIGINT AS dropped
    FROM lake.filter_tallies
    WHERE reason IS NOT NULL
    GROUP BY domain, reason
)
SELECT
    r.domain,
    r.reason,
    r.level,
    r.description,
    CASE WHEN r.counted_in IS NULL THEN NULL ELSE coalesce(t.dropped, 0) END AS dropped,
    r.counted_in
FROM lake.drop_reason_registry AS r
LEFT JOIN tallied AS t USING (domain, reason)
ORDER BY r.domain, r.level, r.reason
