-- What the ROUGE recall filter removes: candidates below each threshold, kept, and the kept mean recalls.
SELECT count(*) AS candidates,
    count(*) FILTER (list_contains(failed_thresholds, 'rouge1')) AS below_rouge1,
    count(*) FILTER (list_contains(failed_thresholds, 'rouge2')) AS below_rouge2,
    count(*) FILTER (list_contains(failed_thresholds, 'rougeL')) AS below_rougeL,
    count(*) FILTER (kept) AS kept,
    round(avg(rouge1_recall) FILTER (kept), 1) AS kept_rouge1_recall,
    round(avg(rouge2_recall) FILTER (kept), 1) AS kept_rouge2_recall,
    round(avg(rougeL_recall) FILTER (kept), 1) AS kept_rougeL_recall
FROM citesum.candidates
