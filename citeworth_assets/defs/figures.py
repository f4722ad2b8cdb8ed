"""Figures as Dagster metadata: a picture with its table as Markdown (the UI renders it), and the PNG's path."""

import dagster as dg


def figure_metadata(entries: dict) -> dict:
    """``lib.figures``' plain entries as metadata values: ``*_png`` paths, everything else Markdown."""
    return {
        key: dg.MetadataValue.path(value) if key.endswith("_png") else dg.MetadataValue.md(value)
        for key, value in entries.items()
    }
