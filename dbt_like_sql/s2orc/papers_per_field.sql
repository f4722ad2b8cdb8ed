-- Papers, candidate papers and their share per MAG field of study; a paper with several fields counts in each.
-- materialized: table
WITH paper_fields AS (
    SELECT paper_id, unnest(mag_field_of_study) AS field_of_study
    FROM s2orc.papers
), candidate_fields AS (
    SELECT paper_id, unnest(mag_field_of_study) AS field_of_study
    FROM s2orc.candidate_papers
)
SELECT
    p.field_of_study,
    count(DISTINCT p.paper_id) AS papers,
    count(DISTINCT c.paper_id) AS candidate_papers,
    round(count(DISTINCT c.paper_id) / count(DISTINCT p.paper_id), 4) AS candidate_share
FROM paper_fields AS p
LEFT JOIN candidate_fields AS c USING (paper_id, field_of_study)
GROUP BY p.field_of_study
ORDER BY papers DESC, p.field_of_study
