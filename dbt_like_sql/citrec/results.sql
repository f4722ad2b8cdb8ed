-- Citation recommendation results in long format (the thesis "Semantic approaches to citation recommendation", §6.2): one row per model, data set, metric
-- (recall, mrr, map, ndcg) and cut-off k = 1..10, with the test items ranked and the MLflow run id.
SELECT model, dataset, metric, k, value, items, run_id FROM lake.citrec_results
