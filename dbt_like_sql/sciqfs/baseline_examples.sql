-- ROUGE-SciQFS baselines per test example: Average Precision and ROC AUC, null for single-class examples.
SELECT * FROM lake.sciqfs_baseline_examples
