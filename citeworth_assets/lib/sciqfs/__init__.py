"""ROUGE-SciQFS: query-focused summarization examples built from citations.

A citing paper's sentences are the document, a cited paper's abstract is the query, and the sentences
that cite it are the relevant ones; a greedy ROUGE search adds sentences close to the query.

Modules: ``tables`` (Papers / References / Citations, §3.2), ``s2orc_source`` and ``science_parse``
(adapters from parsed papers), ``examples`` (§3.3-3.4), ``augmentation`` (§3.5), ``splits``,
``statistics`` (Table 1), ``release`` (JSONL + Parquet), ``dataset`` (all of it in one call) and
``sample`` (a generated dump for tests).
"""
