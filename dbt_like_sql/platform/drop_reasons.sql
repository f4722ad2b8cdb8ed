-- Every reason a filter of the platform drops something for (the S2ORC candidate filter, CiteWorth's rules, CiteSum, ROUGE-SciQFS), with its level, meaning and the number of drops the lake holds for it (null where no lake table counts that domain's drops).
SELECT
    r.domain,
    r.reason,
    r.level,
    r.description,
    CASE WHEN r.counted_in IS NULL THEN NULL ELSE coalesce(c.dropped, 0) END AS dropped,
    r.counted_in
FROM lake.drop_reason_registry AS r
LEFT JOIN lake.drop_reason_counts AS c USING (domain, reason)
ORDER BY r.domain, r.level, r.reason
