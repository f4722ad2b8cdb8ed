-- One row per submission of every arXiv bulk LaTeX source dump (Saier 2019 §4.2.3): converted, or the reason it was
-- not (pdf_only, no_tex, corrupt_archive, no_main_file, conversion_failed, timeout), the seconds it took, the main
-- file, the salvage used and the markers, linked markers and bibliography entries of the converted paper.
SELECT * FROM lake.arxiv_source_outcomes
