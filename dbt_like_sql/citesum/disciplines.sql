-- Cited papers per discipline (the CiteSum paper's Figure 1); 'unknown' counts the cited papers whose metadata has no field of study.
SELECT * REPLACE (coalesce(discipline, 'unknown') AS discipline)
FROM lake.citesum_disciplines
