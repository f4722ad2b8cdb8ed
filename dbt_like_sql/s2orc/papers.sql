-- S2ORC metadata rows of every shard, typed, with provenance (release, shard, file, line, byte offset).
SELECT * FROM lake.s2orc_papers
