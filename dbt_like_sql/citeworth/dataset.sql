-- The balanced CiteWorth dataset of each rule set: paragraphs with their field and split.
SELECT * FROM lake.citeworth_dataset
