-- Train on one field, test on another (Table 5), with the per-column standard deviation.
SELECT * FROM lake.citeworth_domain_matrix
