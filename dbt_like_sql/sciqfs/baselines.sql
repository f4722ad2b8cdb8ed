-- ROUGE-SciQFS Table 3: per classifier and embedding, mean and standard deviation of per-example Average Precision and ROC AUC on the test split, single-class examples counted, the MLflow run; rows not run say why.
SELECT * FROM lake.sciqfs_baselines
