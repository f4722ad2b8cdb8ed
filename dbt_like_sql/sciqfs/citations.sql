-- ROUGE-SciQFS Citations table (§3.2): one row per citation, with the citing sentence as context and the marker's offsets in it.
SELECT * FROM lake.sciqfs_citations
