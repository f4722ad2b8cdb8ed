-- Table 3 of the paper from the judgements so far: shares with 95% Wilson intervals, Cohen's kappa.
SELECT * FROM lake.citeworth_manual_eval_results
