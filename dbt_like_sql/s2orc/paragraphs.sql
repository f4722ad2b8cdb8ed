-- Body-text paragraphs of the candidate papers: section, text, citation and reference spans, provenance.
SELECT * FROM lake.s2orc_paragraphs
