-- ROUGE-SciQFS References table (§3.2): cited works de-duplicated by normalised title (the reference_id), with the number of citations in the collection (summed over the partitions that cite it) and the abstract (the query) from the linked paper; ties broken by text, so every build picks the same.
SELECT reference_id,
       first(title ORDER BY abstract IS NULL, title) AS title,
       sum(total_citations) AS total_citations,
       first(abstract ORDER BY abstract IS NULL, abstract) AS abstract
FROM lake.sciqfs_references
GROUP BY reference_id
