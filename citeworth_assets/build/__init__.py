"""``citeworth build``: the plan (what to run, asked of the graph's automation conditions), the data root it builds
(one build per root, its guard against a dead build's leftovers), the run queue and the shared Dagster instance.
Dagster's public API throughout, but for :mod:`~citeworth_assets.build.dagster_internals`."""
