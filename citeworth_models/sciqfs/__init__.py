"""ROUGE-SciQFS baselines (ROUGE-SciQFS §4, Appendix A): embeddings, classifiers and per-example metrics.

``embeddings`` (TF-IDF words / character trigrams, all-MiniLM-L6-v2 from a local package),
``classifiers`` (cosine similarity, MLP, BiLSTM, Transformer encoder), ``metrics`` (Average Precision
and ROC AUC per example, Table 3), ``baselines`` (train on one split, evaluate on another).
"""
