-- Paragraph texts of the arXiv papers with their {{cite:...}} marker positions and provenance down to the line.
SELECT * FROM lake.arxiv_paragraphs
