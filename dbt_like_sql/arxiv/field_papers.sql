-- arXiv papers of each gathered MAG level-0 field partition (catalogue fields, else unarXive 2022's discipline).
SELECT * FROM lake.arxiv_field_papers
