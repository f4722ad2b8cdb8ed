-- The latest MLflow run of each cite-worthiness model with its test precision, recall and F1 (Table 4).
SELECT * FROM lake.citeworth_model_comparison
