-- One row per (arXiv paper, MAG level-0 field) of each gathered field partition (catalogue fields, else unarXive
-- 2022's discipline); a paper in several dump files is one paper here.
SELECT * FROM lake.arxiv_field_papers
