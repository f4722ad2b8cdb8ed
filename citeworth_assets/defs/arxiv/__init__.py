"""arXiv (unarXive 2020 and 2022+): per-dump-file ingestion, reference resolution, citation contexts, the context
export, the dump sensors and jobs. The works catalogue they resolve against is in ``defs/mag``."""
