"""S2ORC: shard assets (papers, candidate filter, paragraphs), the dump sensor and the shard job."""
