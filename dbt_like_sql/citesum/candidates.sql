-- Related Work sentences citing one linked paper, with ROUGE recalls, the thresholds they fail and whether kept.
SELECT * FROM lake.citesum_candidates
