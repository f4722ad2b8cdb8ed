-- arXiv papers of every unarXive dump file: normalised arXiv id, metadata (2022+), discipline, citing MAG id, marker
-- counts (markers whose bibliography item is missing counted apart), provenance (release, file, member, line).
SELECT * FROM lake.arxiv_papers
