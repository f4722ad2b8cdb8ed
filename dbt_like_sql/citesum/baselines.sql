-- EXT-LEAD, EXT-HEURISTIC and EXT-ORACLE on the test split: mean ROUGE-1/2/L F1 x100.
SELECT * FROM lake.citesum_baselines
