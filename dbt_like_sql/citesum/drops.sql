-- Related Work sentences that are not CiteSum candidates, with the reason.
SELECT * FROM lake.citesum_drops
