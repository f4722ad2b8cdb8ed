"""arXiv LaTeX sources (Saier 2019 §4.2.3): bulk source dumps converted into unarXive 2022 papers, which the arXiv
domain ingests as dump files; the source sensor and job."""
