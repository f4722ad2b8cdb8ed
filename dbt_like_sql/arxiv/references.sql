-- Bibliography items, each citing paper's once (a paper in several dump files: its kept occurrence's, see
-- arxiv.duplicate_papers), with their resolution outcome from the same dump file: the catalogue work found and its
-- route (resolved_by arxiv_id / doi / title) or the failure reason, beside the link the input shipped (refs.db
-- cited_mag_id, unarXive 2022 ids) and how the two compare (same, different, shipped_only, ours_only, neither; on the
-- MAG id when shipped, else the OpenAlex id).
WITH repeated AS (
    SELECT DISTINCT dump_file, source_id FROM lake.arxiv_duplicate_papers
    QUALIFY NOT bool_or(kept) OVER (PARTITION BY dump_file, paper_id)
)
SELECT
    r.*,
    s.work_id,
    s.mag_id AS resolved_mag_id,
    s.openalex_id AS resolved_openalex_id,
    s.resolved_by,
    CASE WHEN s.ref_id IS NULL THEN 'not_resolved_yet' ELSE s.failure END AS failure,
    s.title AS matched_title,
    s.candidates,
    CASE
        WHEN r.linked_mag_id IS NULL AND r.linked_openalex_id IS NULL
            THEN CASE WHEN s.work_id IS NULL THEN 'neither' ELSE 'ours_only' END
        WHEN s.work_id IS NULL THEN 'shipped_only'
        WHEN r.linked_mag_id IS NOT NULL
            THEN CASE WHEN s.mag_id = r.linked_mag_id THEN 'same' ELSE 'different' END
        WHEN s.openalex_id = regexp_replace(r.linked_openalex_id, '^.*/', '') THEN 'same'
        ELSE 'different'
    END AS link_comparison
FROM lake.arxiv_references AS r
LEFT JOIN lake.arxiv_resolutions AS s
    ON s.dump_file = r.dump_file AND s.ref_id = r.ref_id AND s.citing_paper_id IS NOT DISTINCT FROM r.citing_paper_id
ANTI JOIN repeated AS d ON d.dump_file = r.dump_file AND d.source_id = r.citing_paper_id
