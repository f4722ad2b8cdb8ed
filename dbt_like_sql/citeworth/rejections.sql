-- Every paper and paragraph a rule set dropped, with the rule that dropped it (see citeworth.drop_reasons).
SELECT * FROM lake.citeworth_rejections
