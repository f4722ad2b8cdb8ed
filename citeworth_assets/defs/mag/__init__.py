"""MAG and OpenAlex: the works catalogue, its citation edges and the level-0 fields of study (read by defs/arxiv),
the catalogue sensor and job."""
