-- Every reason a CiteWorth rule can drop a paper, paragraph or sentence for, with its level and meaning.
SELECT * FROM lake.citeworth_drop_reasons ORDER BY level, reason
