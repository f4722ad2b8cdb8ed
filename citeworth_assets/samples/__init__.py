"""Deterministic generators of small, answerable sample inputs for tests, demos and benchmarks."""
