-- The candidates of each evaluation data set: cited work, title and fields from the catalogue, training
-- contexts describing it and test items citing it.
SELECT dataset, work, title, fields_of_study, train_contexts, test_items FROM lake.citrec_candidates
