-- Citation edges between works (MAG PaperReferences, OpenAlex referenced_works), with whether each end is in the catalogue.
SELECT
    e.*,
    e.citing_work_id IN (SELECT work_id FROM lake.works) AS citing_in_catalogue,
    e.cited_work_id IN (SELECT work_id FROM lake.works) AS cited_in_catalogue
FROM lake.work_references AS e
