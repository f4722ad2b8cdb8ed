-- Table 2 of the paper (sentences, tokens, splits, cite-worthy share, lengths), overall and per field.
SELECT * FROM lake.citeworth_statistics
