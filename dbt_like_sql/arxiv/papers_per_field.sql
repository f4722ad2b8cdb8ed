-- arXiv papers per level-0 field of study, keyed like the static field partitions: the fields of the paper's catalogue
-- work (same arXiv id, else its MAG id), else unarXive 2022's discipline, else no field (null). A paper with several
-- fields counts in each; from_catalogue / from_discipline say where the field came from.
-- materialized: table
WITH catalogue_fields AS (
    SELECT DISTINCT p.paper_id, unnest(w.fields) AS field_of_study
    FROM lake.arxiv_papers AS p
    JOIN lake.works AS w ON w.arxiv_id = p.paper_id OR (p.mag_id IS NOT NULL AND w.mag_id = p.mag_id)
), paper_fields AS (
    SELECT paper_id, field_of_study, 'catalogue' AS source FROM catalogue_fields
    UNION ALL
    SELECT DISTINCT paper_id, discipline, CASE WHEN discipline IS NULL THEN 'none' ELSE 'discipline' END
    FROM lake.arxiv_papers
    WHERE paper_id NOT IN (SELECT paper_id FROM catalogue_fields)
)
SELECT
    field_of_study,
    trim(regexp_replace(lower(field_of_study), '[^a-z0-9]+', '_', 'g'), '_') AS field_key,
    count(DISTINCT paper_id) AS papers,
    count(DISTINCT paper_id) FILTER (WHERE source = 'catalogue') AS from_catalogue,
    count(DISTINCT paper_id) FILTER (WHERE source = 'discipline') AS from_discipline
FROM paper_fields
GROUP BY field_of_study
ORDER BY papers DESC, field_of_study NULLS LAST
