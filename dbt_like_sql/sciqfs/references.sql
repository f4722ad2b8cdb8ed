-- ROUGE-SciQFS References table (§3.2): cited works de-duplicated by normalised title, with the number of citations in the collection and the abstract (the query) from the linked paper.
SELECT * FROM lake.sciqfs_references
