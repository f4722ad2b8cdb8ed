"""A small warehouse with some of the views the reproduced tables read, for the reproduce tests."""

from pathlib import Path

import duckdb


def small_warehouse(path: Path) -> Path:
    """A warehouse with some of the views the tables read: two rule sets' statistics, an unjudged manual
    evaluation (empty), two trained models (one near-degenerate), the arXiv citation recommendation results;
    no domain matrix (never built)."""
    with duckdb.connect(str(path)) as connection:
        connection.execute("CREATE SCHEMA citeworth; CREATE SCHEMA citrec")
        connection.execute(
            "CREATE TABLE citeworth.statistics AS SELECT * FROM (VALUES "
            "('citeworth_improved_v2', 'all', 9, 99, 999, 80, 9, 10, 50, 49, 0.5, 30, 200, 90.5, 88.0),"
            "('citeworth_2021', 'all', 10, 200, 3000, 160, 20, 20, 64, 136, 0.32, 21, 1447, 152.4, 142.0),"
            "('citeworth_2021', 'Biology', 1, 20, 300, 16, 2, 2, 6, 14, 0.3, 25, 400, 150.0, 140.0)) "
            "t(rule_set, field, paragraphs, sentences, tokens, train_sentences, dev_sentences, test_sentences, "
            "cite_worthy, non_cite_worthy, cite_worthy_share, min_chars, max_chars, mean_chars, median_chars)"
        )
        connection.execute(
            "CREATE TABLE citeworth.manual_eval_results (rule_set VARCHAR, method VARCHAR, question VARCHAR, "
            "yes INT, judged INT, percent DOUBLE)"
        )
        connection.execute(
            "CREATE TABLE citeworth.model_comparison AS SELECT * FROM (VALUES "
            "('logistic_regression', 'r1', 0.5, 0.6, 0.5454), ('transformer', 'r2', 1.0, 0.02, 0.04)) "
            "t(model, run_id, precision, recall, f1)"
        )
        connection.execute(
            "CREATE TABLE citrec.dataset_statistics AS SELECT 'arxiv' AS dataset, '<=2016 / >=2017' AS split, "
            "4 AS candidates, 3 AS tested, 536 AS test_items, 23.0 AS mean_contexts_per_candidate, "
            "16.8 AS sd_contexts_per_candidate"
        )
        connection.execute(
            "CREATE TABLE citrec.results AS SELECT model, 'arxiv' AS dataset, metric, k, 0.25 + k / 100 AS value "
            "FROM (VALUES ('bow'), ('bm25')) m(model), (VALUES ('recall'), ('mrr'), ('map'), ('ndcg')) x(metric), "
            "range(1, 11) r(k)"
        )
    return path
