"""ROUGE-SciQFS: query-focused summarization examples built from citations.

A citing paper's sentences are the document, a cited paper's abstract is the query, and the sentences
that cite it are the relevant ones; a greedy ROUGE search adds sentences close to the query.

Modules: ``tables`` (Papers / References / Citations, §3.2), ``s2orc_source``, ``science_parse`` and
``arxiv_source`` (adapters from parsed papers), ``s2orc_lake`` (one S2ORC shard's papers from the lake),
``examples`` (§3.3-3.4), ``augmentation`` (§3.5), ``splits``, ``statistics`` (Table 1), ``release`` (the release
layout), ``dataset`` (the steps the graph and ``citeworth sciqfs`` share), ``lake_tables`` (partitions in the
lake), ``tracking`` (the baselines in MLflow) and ``sample`` (a generated dump for tests).
"""
