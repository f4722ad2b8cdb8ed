-- The CiteSum examples with the cited paper's title, abstract and discipline, and their split.
SELECT * FROM lake.citesum_dataset
