-- The evaluation data sets (Table 6 of the thesis "Semantic approaches to citation recommendation"): split, candidates, tested candidates, test items, mean and
-- SD of training contexts per candidate, with the settings that built each and its unusable CSV lines.
SELECT dataset, split, candidates, tested, test_items, mean_contexts_per_candidate, sd_contexts_per_candidate,
       min_contexts, min_citing_papers, split_year, citing_fields, read_issues
FROM lake.citrec_dataset_statistics
