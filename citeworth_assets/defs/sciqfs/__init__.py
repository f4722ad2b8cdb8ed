"""ROUGE-SciQFS: the clean tables and examples per input partition, the release, and the baselines of Table 3."""
