"""Cite-worthiness models (CiteWorth §4-§6): training assets tracked in MLflow, comparison, cross-field matrix.

Training is expensive, so nothing trains on its own when the datasets change: train from the UI (``models_job``)
or turn on the nightly schedule."""
