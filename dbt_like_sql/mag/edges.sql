-- Citation edges between works (MAG PaperReferences, OpenAlex referenced_works), with whether each end is in the catalogue.
-- The catalogue is joined with the edges' distinct ends (DuckDB hashes the smaller side, spilling beyond its memory
-- limit), never held whole as the build side of an IN list: memory follows the edges, not the catalogue.
WITH ends AS (
    SELECT citing_work_id AS work_id FROM lake.work_references
    UNION
    SELECT cited_work_id FROM lake.work_references
),
known AS (
    SELECT DISTINCT ends.work_id FROM ends JOIN lake.works AS w ON w.work_id = ends.work_id
)
SELECT
    e.*,
    citing.work_id IS NOT NULL AS citing_in_catalogue,
    cited.work_id IS NOT NULL AS cited_in_catalogue
FROM lake.work_references AS e
LEFT JOIN known AS citing ON citing.work_id = e.citing_work_id
LEFT JOIN known AS cited ON cited.work_id = e.cited_work_id
