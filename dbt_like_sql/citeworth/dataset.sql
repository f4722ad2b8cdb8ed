-- The balanced CiteWorth dataset of each rule set: one row per paragraph (a paper found in several shards or dump
-- files contributes its kept occurrence's), with its field and split.
SELECT * FROM lake.citeworth_dataset
