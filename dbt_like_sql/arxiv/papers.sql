-- arXiv papers of every unarXive dump file: normalised arXiv id, metadata and abstract (2022+; null for 2020), discipline, citing MAG id, marker
-- counts (markers whose bibliography item is missing counted apart), provenance (release, file, member, line).
SELECT * FROM lake.arxiv_papers
