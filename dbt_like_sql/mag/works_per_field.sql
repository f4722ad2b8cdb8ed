-- Catalogue works per level-0 field of study and source (mag, openalex); a work with several fields counts in each.
-- materialized: table
SELECT field_of_study, source, count(*) AS works
FROM (SELECT source, unnest(fields) AS field_of_study FROM lake.works)
GROUP BY field_of_study, source
ORDER BY works DESC, field_of_study, source
