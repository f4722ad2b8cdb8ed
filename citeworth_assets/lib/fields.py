"""Microsoft Academic Graph level-0 fields of study (the list lives with the models that match them in text), the
ten CiteWorth samples from, and their partition keys."""

import re

from citeworth_models.fields import MAG_FIELDS

__all__ = ["CITEWORTH_FIELDS", "FIELD_BY_KEY", "FIELD_DIMENSION", "MAG_FIELDS", "field_key"]


# The ten fields CiteWorth samples evenly from (CiteWorth §3.2).
CITEWORTH_FIELDS: tuple[str, ...] = (
    "Biology",
    "Medicine",
    "Engineering",
    "Chemistry",
    "Psychology",
    "Computer Science",
    "Materials Science",
    "Economics",
    "Mathematics",
    "Physics",
)


def field_key(field: str) -> str:
    """``Computer Science`` -> ``computer_science`` (partition keys use [a-z0-9_] only)."""
    return re.sub(r"[^a-z0-9]+", "_", field.lower()).strip("_")


FIELD_DIMENSION = "field"  # lake partition folders of the per-field tables: <table>/field=<key>/
FIELD_BY_KEY = {field_key(field): field for field in MAG_FIELDS}
