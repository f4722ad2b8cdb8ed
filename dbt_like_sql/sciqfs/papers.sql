-- ROUGE-SciQFS Papers table (§3.2): each citing paper's id, title, abstract and text (its body paragraphs joined by blank lines).
SELECT * FROM lake.sciqfs_papers
