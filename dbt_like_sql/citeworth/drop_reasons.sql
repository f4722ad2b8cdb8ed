-- Every reason a CiteWorth rule can drop a paper, paragraph or sentence for, with its level and meaning.
SELECT reason, level, description FROM lake.drop_reason_registry WHERE domain = 'citeworth' ORDER BY level, reason
