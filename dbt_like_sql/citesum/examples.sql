-- The CiteSum examples, one row per citation sentence (a citing paper in several shards counted once), with the
-- cited paper's title, abstract and discipline, and their split. The discipline is 'unknown' where the S2ORC metadata
-- gives the cited paper no field of study (null or empty mag_field_of_study); the release files keep null there.
SELECT * REPLACE (coalesce(discipline, 'unknown') AS discipline)
FROM lake.citesum_dataset
