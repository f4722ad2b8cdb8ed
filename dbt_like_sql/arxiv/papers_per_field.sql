-- arXiv papers per MAG level-0 field as the static field partitions gather them (arxiv_field_papers: the fields of the
-- paper's catalogue work, else unarXive 2022's discipline as a MAG field), and a row with no field for the papers in none.
-- A paper with several fields counts in each; from_catalogue / from_discipline say where the field came from.
-- materialized: table
WITH fields AS (
    SELECT DISTINCT paper_id, field_of_study, field_key, field_source FROM lake.arxiv_field_papers
)
SELECT
    field_of_study,
    field_key,
    count(DISTINCT paper_id) AS papers,
    count(DISTINCT paper_id) FILTER (WHERE field_source = 'catalogue') AS from_catalogue,
    count(DISTINCT paper_id) FILTER (WHERE field_source = 'discipline') AS from_discipline
FROM fields
GROUP BY field_of_study, field_key
UNION ALL
SELECT NULL, NULL, count(DISTINCT paper_id), 0, 0
FROM lake.arxiv_papers
WHERE paper_id NOT IN (SELECT paper_id FROM fields)
ORDER BY papers DESC, field_of_study NULLS LAST
