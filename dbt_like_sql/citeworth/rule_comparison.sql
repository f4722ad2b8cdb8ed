-- Both rule sets, and the faithful one with each improvement alone: yield per 1000 candidates, quality proxies.
SELECT * FROM lake.citeworth_rule_comparison
