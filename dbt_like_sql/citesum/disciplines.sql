-- Cited papers per discipline (Figure 1).
SELECT * FROM lake.citesum_disciplines
