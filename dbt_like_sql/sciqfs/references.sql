-- ROUGE-SciQFS References table (§3.2): cited works de-duplicated by normalised title (the reference_id), with the number of citations in the collection (summed over the partitions that cite it) and the abstract (the query) from the linked paper.
SELECT reference_id,
       min_by(title, abstract IS NULL) AS title,
       sum(total_citations) AS total_citations,
       min_by(abstract, abstract IS NULL) AS abstract
FROM lake.sciqfs_references
GROUP BY reference_id
