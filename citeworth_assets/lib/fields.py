"""Microsoft Academic Graph level-0 fields of study, and their partition keys."""

import re

MAG_FIELDS: tuple[str, ...] = (
    "Art",
    "Biology",
    "Business",
    "Chemistry",
    "Computer Science",
    "Economics",
    "Engineering",
    "Environmental Science",
    "Geography",
    "Geology",
    "History",
    "Materials Science",
    "Mathematics",
    "Medicine",
    "Philosophy",
    "Physics",
    "Political Science",
    "Psychology",
    "Sociology",
)

# The ten fields CiteWorth samples evenly from (seeds/001 §3.2).
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


FIELD_BY_KEY = {field_key(field): field for field in MAG_FIELDS}
