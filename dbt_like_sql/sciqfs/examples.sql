-- ROUGE-SciQFS examples: one row per (citing paper, reference) with its sentences, query, labels, label sources (citation / rouge) and the release's split of its citing paper.
SELECT e.example_id, e.paper_id, e.reference_id, s.split, e.sentences, e.query, e.labels, e.label_sources,
       e.rouge_precision, e.rouge_recall, e.rouge_fmeasure
FROM lake.sciqfs_examples AS e
LEFT JOIN lake.sciqfs_splits AS s USING (paper_id)
