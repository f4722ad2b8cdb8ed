-- BART and CITES (Tables 5-7): ROUGE-1/2/L F1 x100 on CiteSum test and SciTLDR-A test, discipline macro/weighted F1;
-- meaningful = false marks the tiny random BART (no checkpoint configured), whose scores mean nothing; reason says
-- why a row has no scores.
SELECT * FROM lake.citesum_abstractive_scores
