-- Papers the candidate filter rejects, with the first criterion each fails.
SELECT * FROM lake.s2orc_paper_rejections
