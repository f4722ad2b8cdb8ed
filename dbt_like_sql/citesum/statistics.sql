-- Examples and mean source / summary length per split (Table 3).
SELECT * FROM lake.citesum_statistics
