-- Works listed more than once in the catalogue's dumps (a MAG PaperId on two Papers.txt lines, an OpenAlex work
-- again in a later updated_date= folder): one row per version not kept, beside the newest version, which is kept.
SELECT * FROM lake.work_duplicates
