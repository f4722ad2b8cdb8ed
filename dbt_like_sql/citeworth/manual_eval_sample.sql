-- The blind manual-evaluation sample of each rule set (ours and the span-removal baseline).
SELECT * FROM lake.citeworth_manual_eval_sample
