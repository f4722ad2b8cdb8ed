-- The works catalogue: MAG papers and OpenAlex works in one row shape (work id, normalised title, year, authors in
-- order, citation count, DOI, arXiv id, level-0 fields); a work in both sources has a row from each.
SELECT * FROM lake.works
