-- Each model's Recall, MRR, MAP and NDCG at k = 10 per data set, side by side (the thesis's comparison).
SELECT dataset, model,
       max(value) FILTER (WHERE metric = 'recall') AS recall_at_10,
       max(value) FILTER (WHERE metric = 'mrr') AS mrr_at_10,
       max(value) FILTER (WHERE metric = 'map') AS map_at_10,
       max(value) FILTER (WHERE metric = 'ndcg') AS ndcg_at_10,
       max(items) AS items
FROM citrec.results
WHERE k = 10
GROUP BY dataset, model
ORDER BY dataset, recall_at_10 DESC
