"""S2AG: staging the papers and abstracts of each release (the full-text files are partitions of the S2ORC shards)."""
