-- Paragraphs accepted by each CiteWorth rule set, in the release schema, with provenance.
SELECT * FROM lake.citeworth_paragraphs
