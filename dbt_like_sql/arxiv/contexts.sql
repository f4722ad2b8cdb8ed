-- Citation contexts: the window around each marker of a linked bibliography item, target MAINCIT, other markers CIT,
-- adjacent citations (same group or at most 5 characters apart) by MAG, arXiv and OpenAlex id, the cited DOI; what
-- exports/arxiv/contexts.csv holds.
SELECT * FROM lake.arxiv_contexts
