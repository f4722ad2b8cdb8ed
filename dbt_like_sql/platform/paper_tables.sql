-- The papers' tables (CiteWorth, CiteSum, ROUGE-SciQFS, Saier 2019) beside this build's figures, one row per
-- cell: the value as printed, ours on the paper's scale, ours minus the paper's, and why ours is missing
-- (`citeworth reproduce` prints the same). Quote "table", "row" and "column" in queries.
SELECT paper, "table", "row", "column", published, ours, difference, reason FROM lake.paper_tables
