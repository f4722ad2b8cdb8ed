"""Deterministic sample inputs (S2ORC, unarXive 2020/2022, MAG, OpenAlex, citation contexts) that exercise every
reader and rule: test-data tooling for tests, the demo and benchmarks, not production code."""
