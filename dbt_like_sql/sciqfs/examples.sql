-- ROUGE-SciQFS examples: one row per (citing paper, reference) with its sentences, query, labels, label sources (citation / rouge) and split.
SELECT * FROM lake.sciqfs_examples
