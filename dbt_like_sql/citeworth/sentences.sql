-- One row per sentence of the dataset: label, cite-worthiness, field, split and provenance.
SELECT d.rule_set, d.paper_id, d.section_idx, s.i - 1 AS sentence_idx, d.field, d.split,
    d.samples[s.i].label AS label, d.samples[s.i].label = 'check-worthy' AS cite_worthy,
    d.samples[s.i].text AS text, d.samples[s.i].original_text AS original_text,
    d.samples[s.i].citation_text AS citation_text, d.shard, d.line, d.byte_offset
FROM citeworth.dataset AS d, range(1, len(d.samples) + 1) AS s(i)
